#include "driver/init/detail/template_arguments.h"

#include <cctype>

#include "driver/init/detail/argument_types.h"
#include "driver/source/tunable_knobs.h"

namespace optiml::init {
namespace {

bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string trimmed(const std::string& text) {
    const auto begin = text.find_first_not_of(' ');
    if (begin == std::string::npos) return "";
    return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

}  // namespace

std::vector<std::string> template_arguments(const std::string& demangled,
                                            const std::string& kernel) {
    // The kernel's name as a whole identifier followed by '<' (a qualified name "ns::k<" too).
    std::size_t open = std::string::npos;
    for (std::size_t at = demangled.find(kernel + "<"); at != std::string::npos;
         at = demangled.find(kernel + "<", at + 1))
        if (at == 0 || !is_identifier_char(demangled[at - 1])) {
            open = at + kernel.size();
            break;
        }
    if (open == std::string::npos) return {};
    // Split at the commas of this template-id alone: nested <...> and (...) ("(char)65",
    // "Tile<4, 4>") keep theirs.
    std::vector<std::string> arguments;
    std::string current;
    int depth = 0;
    for (std::size_t i = open + 1; i < demangled.size(); ++i) {
        const char c = demangled[i];
        if (depth == 0 && (c == ',' || c == '>')) {
            arguments.push_back(trimmed(current));
            current.clear();
            if (c == '>') return arguments;
            continue;
        }
        if (c == '<' || c == '(') ++depth;
        if (c == '>' || c == ')') --depth;
        current += c;
    }
    return {};  // unbalanced: not a name to trust
}

std::map<std::string, std::string> template_types(std::string_view source,
                                                  const source::KernelText& kernel,
                                                  const std::vector<std::string>& captured) {
    std::map<std::string, std::string> types = template_type_defaults(source, kernel);
    const auto parameters = source::template_parameters(source, kernel);
    if (captured.size() != parameters.size()) return types;
    for (std::size_t i = 0; i < parameters.size(); ++i)
        if ((parameters[i].kind == "typename" || parameters[i].kind == "class") &&
            !parameters[i].name.empty() && !captured[i].empty())
            types[parameters[i].name] = captured[i];
    return types;
}

}  // namespace optiml::init
