// A stand-in for libFuzzer's main where the compiler has no libFuzzer (g++): runs the target's
// LLVMFuzzerTestOneInput on every input file given, then on seeded random mutations of them
// (bit flips, interesting bytes and numbers, inserted, deleted, repeated and spliced ranges) for
// --seconds S or --runs N. It has no coverage feedback: it keeps the targets alive in every
// build, while the real fuzzing is libFuzzer's (scripts/fuzz.sh). An input that ends the process
// (a crash, an uncaught exception) is first written to ./crash-replay-<n>.
//   fuzz_TARGET [--seconds S] [--runs N] [--seed K] FILE...
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::uint8_t> current_input;  // what the signal handler saves
std::size_t current_run = 0;

void save_current_input(int signal_number) {
    // Only async-signal-safe calls: open/write/close of a fixed-pattern name.
    char name[64];
    std::snprintf(name, sizeof name, "crash-replay-%zu", current_run);
    std::FILE* file = std::fopen(name, "wb");
    if (file) {
        std::fwrite(current_input.data(), 1, current_input.size(), file);
        std::fclose(file);
    }
    static const char message[] = "fuzz_main: the input that failed is in ./crash-replay-*\n";
    [[maybe_unused]] const auto written = write(2, message, sizeof message - 1);
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

std::vector<std::uint8_t> read_bytes(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "fuzz_main: cannot read " << path << "\n";
        std::exit(2);
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void run_one(const std::vector<std::uint8_t>& input) {
    current_input = input;
    ++current_run;
    LLVMFuzzerTestOneInput(current_input.data(), current_input.size());
}

class Mutator {
  public:
    explicit Mutator(std::uint64_t seed) : random_(seed) {}

    std::vector<std::uint8_t> mutate(std::vector<std::uint8_t> bytes,
                                     const std::vector<std::uint8_t>& other) {
        const int steps = 1 + below(4);
        for (int step = 0; step < steps; ++step) apply(bytes, other);
        return bytes;
    }

  private:
    int below(std::size_t n) { return n == 0 ? 0 : static_cast<int>(random_() % n); }

    void apply(std::vector<std::uint8_t>& bytes, const std::vector<std::uint8_t>& other) {
        static const std::vector<std::string> tokens = {"{",
                                                        "}",
                                                        "[",
                                                        "]",
                                                        "\"",
                                                        ":",
                                                        ",",
                                                        "0",
                                                        "-1",
                                                        "1e309",
                                                        "-9223372036854775809",
                                                        "18446744073709551616",
                                                        "null",
                                                        "true",
                                                        "\\u0000",
                                                        "//",
                                                        "/*",
                                                        "\n",
                                                        "'",
                                                        "*",
                                                        "("};
        const std::size_t position =
            bytes.empty() ? 0 : static_cast<std::size_t>(below(bytes.size() + 1));
        switch (below(7)) {
            case 0:  // flip a bit
                if (!bytes.empty())
                    bytes[static_cast<std::size_t>(below(bytes.size()))] ^=
                        static_cast<std::uint8_t>(1u << below(8));
                break;
            case 1: {  // an interesting byte
                static const std::uint8_t interesting[] = {0, 0xff, 0x7f, 0x80, '"', '\\', '\n'};
                if (!bytes.empty())
                    bytes[static_cast<std::size_t>(below(bytes.size()))] =
                        interesting[below(sizeof interesting)];
                break;
            }
            case 2: {  // insert a token
                const std::string& token = tokens[static_cast<std::size_t>(below(tokens.size()))];
                bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(position), token.begin(),
                             token.end());
                break;
            }
            case 3: {  // delete a range
                if (bytes.empty()) break;
                const std::size_t start = static_cast<std::size_t>(below(bytes.size()));
                const std::size_t length = 1 + static_cast<std::size_t>(below(std::min<std::size_t>(
                                                   64, bytes.size() - start)));
                bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(start),
                            bytes.begin() + static_cast<std::ptrdiff_t>(start + length));
                break;
            }
            case 4: {  // repeat a range
                if (bytes.empty() || bytes.size() > (1u << 20)) break;
                const std::size_t start = static_cast<std::size_t>(below(bytes.size()));
                const std::size_t length = 1 + static_cast<std::size_t>(below(std::min<std::size_t>(
                                                   256, bytes.size() - start)));
                const std::vector<std::uint8_t> copy(
                    bytes.begin() + static_cast<std::ptrdiff_t>(start),
                    bytes.begin() + static_cast<std::ptrdiff_t>(start + length));
                bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(position), copy.begin(),
                             copy.end());
                break;
            }
            case 5:  // truncate
                bytes.resize(position);
                break;
            default: {  // splice in part of another input
                if (other.empty()) break;
                const std::size_t start = static_cast<std::size_t>(below(other.size()));
                const std::size_t length =
                    1 + static_cast<std::size_t>(below(other.size() - start));
                bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(position),
                             other.begin() + static_cast<std::ptrdiff_t>(start),
                             other.begin() + static_cast<std::ptrdiff_t>(start + length));
                break;
            }
        }
    }

    std::mt19937_64 random_;
};

}  // namespace

int main(int argc, char** argv) {
    double seconds = 0;
    long long runs = -1;
    std::uint64_t seed = 1;
    std::vector<std::vector<std::uint8_t>> corpus;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--seconds" && i + 1 < argc)
            seconds = std::atof(argv[++i]);
        else if (argument == "--runs" && i + 1 < argc)
            runs = std::atoll(argv[++i]);
        else if (argument == "--seed" && i + 1 < argc)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else
            corpus.push_back(read_bytes(argv[i]));
    }
    for (int signal_number : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL})
        std::signal(signal_number, save_current_input);

    const auto start = std::chrono::steady_clock::now();
    for (const auto& input : corpus) run_one(input);
    if (corpus.empty()) corpus.emplace_back();
    Mutator mutator(seed);
    std::mt19937_64 pick(seed + 1);
    long long mutated = 0;
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    while (runs < 0 ? elapsed() < seconds : mutated < runs) {
        const auto& base = corpus[pick() % corpus.size()];
        const auto& other = corpus[pick() % corpus.size()];
        run_one(mutator.mutate(base, other));
        ++mutated;
    }
    std::cout << "fuzz_main: " << current_run << " executions (" << corpus.size()
              << " seed inputs, " << mutated << " mutations) in " << elapsed()
              << " s, no failure\n";
    return 0;
}
