#include "driver/compile/build_flags.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <iterator>
#include <regex>
#include <string_view>

#include <nlohmann/json.hpp>

#include "driver/base/json_field.h"
#include "driver/base/read_file.h"

namespace optiml::compile {
namespace fs = std::filesystem;
namespace {

// Device-code options kept as written (no value, or the value joined with '=').
constexpr std::array<std::string_view, 15> kDeviceSwitches = {"-G",
                                                              "--device-debug",
                                                              "-lineinfo",
                                                              "--generate-line-info",
                                                              "--use_fast_math",
                                                              "-use_fast_math",
                                                              "--extended-lambda",
                                                              "--expt-extended-lambda",
                                                              "-expt-extended-lambda",
                                                              "--expt-relaxed-constexpr",
                                                              "-expt-relaxed-constexpr",
                                                              "--restrict",
                                                              "-restrict",
                                                              "--extra-device-vectorization",
                                                              "-extra-device-vectorization"};
constexpr std::array<std::string_view, 20> kDeviceValued = {
    "-std",      "--std",           "-ftz",          "--ftz",
    "-prec-div", "--prec-div",      "-prec-sqrt",    "--prec-sqrt",
    "-fmad",     "--fmad",          "-maxrregcount", "--maxrregcount",
    "-Xptxas",   "--ptxas-options", "-Xnvlink",      "--nvlink-options",
    "-dopt",     "--dopt",          "-dlto",         "--dlink-time-opt"};
// Options that take a value and only matter to the host compile or the command's plumbing.
constexpr std::array<std::string_view, 14> kHostValued = {"-o",
                                                          "-x",
                                                          "-MT",
                                                          "-MF",
                                                          "-MQ",
                                                          "-Xcompiler",
                                                          "--compiler-options",
                                                          "-ccbin",
                                                          "--compiler-bindir",
                                                          "-Xlinker",
                                                          "--linker-options",
                                                          "-Xarchive",
                                                          "--archive-options",
                                                          "--output-file"};

bool is_one_of(std::string_view word, auto list) {
    return std::find(list.begin(), list.end(), word) != list.end();
}

// "-name=value" or "-name" followed by its value: the name and the value, or nullopt.
struct Split {
    std::string name;
    std::optional<std::string> value;  // after '=', when written so
};
Split split_option(const std::string& word) {
    const auto equals = word.find('=');
    if (equals == std::string::npos) return {word, std::nullopt};
    return {word.substr(0, equals), word.substr(equals + 1)};
}

void add_archs(const std::string& text, std::vector<int>& archs) {
    static const std::regex arch(R"((?:sm|compute|lto)_([0-9]+)[a-z]?)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), arch);
         it != std::sregex_iterator(); ++it) {
        const std::string digits = (*it)[1].str();
        int number = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), number);
        if (error != std::errc() || end != digits.data() + digits.size() || number <= 0)
            throw BuildFlagsError("the compile command names the architecture " + it->str() +
                                  ", whose number nvcc does not know");
        if (std::find(archs.begin(), archs.end(), number) == archs.end()) archs.push_back(number);
    }
}

fs::path absolute_in(const fs::path& directory, const std::string& path) {
    const fs::path p(path);
    return (p.is_absolute() ? p : directory / p).lexically_normal();
}

[[noreturn]] void throw_build_flags_error(const std::string& message) {
    throw BuildFlagsError(message);
}

// The member `name` of a database's entry when it is a string, "" when it is absent.
std::string optional_string(const nlohmann::json& entry, std::string_view name,
                            const base::JsonPath& at, const std::string& expected) {
    const auto found = entry.find(name);
    if (found == entry.end()) return "";
    return base::JsonField(*found, at.field(name)).string(expected);
}

// A path as the file system resolves it (symbolic links, "..") where it can, else as written:
// a name too long for the file system is no error here, only a file no entry names.
fs::path comparable(const fs::path& path) {
    std::error_code error;
    fs::path resolved = fs::weakly_canonical(path, error);
    return error ? path.lexically_normal() : resolved;
}

bool is_nvcc(const std::string& word) {
    const std::string name = fs::path(word).filename().string();
    return name == "nvcc" || name == "nvcc.exe";
}

class Parser {
  public:
    explicit Parser(const CompileCommand& command) : command_(command) {}

    BuildFlags parse() {
        const auto& words = command_.words;
        auto it = std::find_if(words.begin(), words.end(), is_nvcc);
        if (it == words.end())
            throw BuildFlagsError(
                "the compile command does not run nvcc (\"" +
                (words.empty() ? std::string() : words.front()) +
                "\"); OptiML reads the target's CUDA flags from nvcc's command line only");
        words_.assign(it + 1, words.end());
        for (position_ = 0; position_ < words_.size(); ++position_) one(words_[position_]);
        return std::move(flags_);
    }

  private:
    // The value of option `name`: after '=' when written so, else the next word.
    std::string value_of(const Split& split) {
        if (split.value) return *split.value;
        if (position_ + 1 >= words_.size())
            throw BuildFlagsError("the compile command ends after " + split.name +
                                  ", which takes a value");
        return words_[++position_];
    }

    void include_dir(const std::string& dir) {
        flags_.include_dirs.push_back(absolute_in(command_.directory, dir));
    }

    void one(const std::string& word) {
        if (word.empty() || word[0] != '-') return;  // the source file
        const Split split = split_option(word);
        const std::string& name = split.name;
        if (word.size() > 2 && (word.starts_with("-D") || word.starts_with("-U")))
            return flags_.options.push_back(word);
        if (word == "-D" || word == "-U" || name == "--define-macro" || name == "--undefine-macro")
            return flags_.options.push_back(
                (name == "-U" || name == "--undefine-macro" ? "-U" : "-D") + value_of(split));
        if (name == "-I" || name == "-isystem" || name == "--include-path" ||
            name == "--system-include")
            return include_dir(value_of(split));
        if (word.starts_with("-I")) return include_dir(word.substr(2));
        if (word.starts_with("-isystem")) return include_dir(word.substr(8));
        if (name == "-rdc" || name == "--relocatable-device-code") {
            flags_.relocatable = value_of(split) == "true";
            return;
        }
        if (word == "-dc" || word == "--device-c") {
            flags_.relocatable = true;
            return;
        }
        if (name == "-arch" || name == "--gpu-architecture" || name == "-gencode" ||
            name == "--generate-code" || name == "-code" || name == "--gpu-code") {
            const std::string value = value_of(split);
            if (value == "native" || value == "all" || value == "all-major")
                throw BuildFlagsError("the compile command passes " + name + "=" + value +
                                      " to nvcc itself; OptiML needs the architectures as "
                                      "CUDA_ARCHITECTURES (CMake expands native and all)");
            add_archs(value, flags_.archs);
            return;
        }
        if (name == "--options-file" || name == "-optf") {
            // An options file may name others, and so itself: never read without end.
            if (++options_files_ > kMaxOptionsFiles)
                throw BuildFlagsError("the compile command reads more than " +
                                      std::to_string(kMaxOptionsFiles) +
                                      " options files (does one name itself?)");
            // Its words in their order, next after the option's.
            std::vector<std::string> extra = split_shell_words(
                base::read_file(absolute_in(command_.directory, value_of(split))));
            words_.insert(words_.begin() + static_cast<long>(position_ + 1),
                          std::make_move_iterator(extra.begin()),
                          std::make_move_iterator(extra.end()));
            return;
        }
        if (is_one_of(word, kDeviceSwitches)) return flags_.options.push_back(word);
        if (is_one_of(name, kDeviceValued)) {
            if (word == "-dlto" || word == "--dlink-time-opt")
                return flags_.options.push_back(word);
            return flags_.options.push_back(name + "=" + value_of(split));
        }
        if (is_one_of(name, kHostValued)) {
            const std::string value = value_of(split);
            flags_.ignored.push_back(split.value ? word : name + " " + value);
            return;
        }
        flags_.ignored.push_back(word);
    }

    const CompileCommand& command_;
    std::vector<std::string> words_;
    std::size_t position_ = 0;
    BuildFlags flags_;
    static constexpr int kMaxOptionsFiles = 64;
    int options_files_ = 0;
};

}  // namespace

std::vector<std::string> split_shell_words(const std::string& command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else if (c == '\'') {
            in_word = true;
            const auto end = command.find('\'', i + 1);
            if (end == std::string::npos)
                throw BuildFlagsError("unterminated ' in the command: " + command);
            word += command.substr(i + 1, end - i - 1);
            i = end;
        } else if (c == '"') {
            in_word = true;
            for (++i; i < command.size() && command[i] != '"'; ++i) {
                // Inside double quotes a backslash escapes only these.
                if (command[i] == '\\' && i + 1 < command.size() &&
                    std::string_view("\"\\$`\n").find(command[i + 1]) != std::string_view::npos)
                    ++i;
                word += command[i];
            }
            if (i >= command.size())
                throw BuildFlagsError("unterminated \" in the command: " + command);
        } else if (c == '\\' && i + 1 < command.size()) {
            in_word = true;
            word += command[++i];
        } else {
            in_word = true;
            word += c;
        }
    }
    if (in_word) words.push_back(std::move(word));
    return words;
}

std::optional<CompileCommand> find_compile_command(const fs::path& database, const fs::path& file) {
    std::ifstream in(database);
    if (!in) throw BuildFlagsError(database.string() + ": cannot be read");
    nlohmann::json entries;
    try {
        entries = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw BuildFlagsError(database.string() + ": not valid JSON (" + e.what() + ")");
    }
    if (!entries.is_array())
        throw BuildFlagsError(database.string() + ": expected an array of compile commands");
    const base::JsonPath root(database.string(), "", &throw_build_flags_error);
    const fs::path wanted = comparable(file);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const nlohmann::json& entry = entries[i];
        if (!entry.is_object() || !entry.contains("file")) continue;
        const base::JsonPath at = root.index(i);
        const fs::path directory = optional_string(entry, "directory", at, "a folder (string)");
        if (comparable(absolute_in(directory, optional_string(entry, "file", at, "a path"))) !=
            wanted)
            continue;
        CompileCommand command{{}, directory};
        if (const auto arguments = entry.find("arguments"); arguments != entry.end()) {
            const base::JsonField field(*arguments, at.field("arguments"));
            for (const base::JsonField& word : field.items("an array of the command's words"))
                command.words.push_back(word.string("a word of the command (string)"));
        } else {
            try {
                command.words = split_shell_words(
                    optional_string(entry, "command", at, "the command line (string)"));
            } catch (const BuildFlagsError& e) {
                at.field("command").fail(e.what(), "a command line as a POSIX shell splits it");
            }
        }
        return command;
    }
    return std::nullopt;
}

BuildFlags parse_nvcc_command(const CompileCommand& command) {
    return Parser(command).parse();
}

bool nvrtc_reproduces(const std::string& option) {
    return option.starts_with("-D") || option.starts_with("-U") || option.starts_with("-std=") ||
           option.starts_with("--std=");
}

}  // namespace optiml::compile
