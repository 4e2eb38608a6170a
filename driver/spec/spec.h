// The kernel spec: what a project writes (JSON) to describe one tunable kernel.
// docs/spec.md documents every field. load_spec() validates everything up front and
// throws SpecError naming the file, the field and what is expected.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/spec/expr.h"

namespace optiml::spec {

// Message format: "<file>: <field>: <what is wrong>; expected <what is expected>".
// Field is a JSON-pointer-like path, e.g. "arguments[2].fill.kind".
class SpecError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

enum class ElementType {
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float32,
    Float64
};

// "int32" -> Int32 etc.; names as written in specs.
std::string to_string(ElementType type);
std::size_t size_of(ElementType type);
bool is_floating(ElementType type);
std::string cpp_type(ElementType type);  // "float", "int", "long long", "unsigned int", ...
// The inverse of to_string: "int32" -> Int32; nullopt for a name that is not a type.
std::optional<ElementType> parse_element_type(std::string_view name);
bool is_signed_integer(ElementType type);

struct Fill {
    enum class Kind { Uniform, Normal, Constant, Iota, File, Generator };
    Kind kind = Kind::Uniform;
    double a = 0.0;  // uniform: min; normal: mean; constant: value; iota: start
    double b = 1.0;  // uniform: max; normal: stddev; iota: step
    std::uint64_t seed = 1;
    // File: raw or .npy data (driver/spec/data_file.h), fixed whatever the seed.
    struct DataPath {
        std::filesystem::path path;  // absolute
        std::string as_written;      // relative to the spec file, as in the JSON
    } file;
    // Generator: the project's C++ source defining optiml_generate (optiml/generate.h); one call
    // fills every entry whose fill names the same source.
    DataPath generator;
};

enum class Role { Input, Output, InOut };

// Names as written in specs: "uniform", "normal", "constant", "iota", "file", "generator";
// "input", "output", "inout".
std::string to_string(Fill::Kind kind);
std::string to_string(Role role);

struct Argument {
    std::string name;
    ElementType type = ElementType::Float32;
    bool is_pointer = false;
    // Scalars: the value used while tuning (integers exactly; floats as double).
    double value = 0.0;
    std::int64_t integer_value = 0;  // integer scalars: the exact value (`value` may round it)
    // Pointers: element count, fill and role.
    expr::Expr count;
    Fill fill;
    Role role = Role::Input;
};

// A scalar the generated launcher takes after the kernel's own arguments, for the launch geometry
// (and constraints, counts) only: it is never passed to the kernel, so a kernel's signature need
// not change to give the launch, say, a matrix height. Integer types only (expressions are).
struct LaunchArgument {
    std::string name;
    ElementType type = ElementType::Int32;
    std::int64_t value = 0;  // its value while tuning and checking
};

struct Parameter {
    std::string name;
    std::vector<std::int64_t> values;
    std::int64_t default_value = 0;  // the value the kernel's own #ifndef default has
};

struct ConstantSymbol {  // a __constant__ array filled before every launch
    std::string name;
    ElementType type = ElementType::Float32;
    expr::Expr count;
    Fill fill;
};

// A project's input generator and the entries one call of it fills (Spec::generators).
struct Generator {
    Fill::DataPath source;
    std::vector<std::string> fills;  // argument names in the kernel's order, then constants'
};

struct Launch {
    std::array<expr::Expr, 3> block;  // defaults: 1
    std::array<expr::Expr, 3> grid;   // defaults: 1
    expr::Expr shared_memory_bytes;   // default: 0
};

// Another problem size every variant is also verified at: integer scalar arguments (those that
// sizes and geometry depend on) set to other values.
struct ProblemSize {
    std::map<std::string, std::int64_t> scalars;  // argument name -> its value at this size
};
// "n=1000003", or "m=77, n=1000003": how messages name a size.
std::string describe(const ProblemSize& size);
// A problem's place on the axis the launcher dispatches along: the product of the sizes it sets.
double dispatch_size(const ProblemSize& size);

struct Check {
    double rtol = 1e-5;
    double atol = 1e-6;
    int trials = 3;                        // correctness trials, each on freshly drawn inputs
    bool deterministic = true;             // two runs on the same inputs must agree bit for bit
    std::vector<ProblemSize> extra_sizes;  // verified there too (timing stays at the main size)
    // A C++ comparison function that replaces the element-wise one (empty: none).
    std::filesystem::path compare;   // absolute
    std::string compare_as_written;  // relative to the spec file, as in the JSON
};

// How every timed run starts with a cold L2: a write over a buffer of twice its size, or the
// next of several copies of the argument buffers (no run finds another's data in L2).
enum class ColdCache { Flush, Rotate };
std::string to_string(ColdCache cold_cache);  // "flush", "rotate"

// Every candidate is timed both ways; this says which decides the winner and the speedup
// reported. Cold: each run after the L2 is emptied (cold_cache says how), as a kernel runs between
// others that evict its data. Warm: back-to-back launches with no flush, as a loop in a program
// runs it, its data left in L2 by the launch before. Cold is the default (docs/spec.md, Timing).
enum class TimingCondition { Cold, Warm };
std::string to_string(TimingCondition condition);  // "cold", "warm"

struct Timing {
    ColdCache cold_cache = ColdCache::Flush;
    TimingCondition decide_by = TimingCondition::Cold;
};

struct Budget {
    // Absent (the default, or "auto"): fitted to the space's size, and the search stops once it
    // has converged (driver/search/budget_fit.h).
    std::optional<int> evaluations;
    double seconds = 600.0;
    std::string strategy = "auto";  // one of kSearchStrategies
};

// The names budget.strategy accepts: the search's strategies (driver/search/strategy.h; a test
// keeps the two lists equal, since spec/ may not depend on search/).
inline constexpr std::array<std::string_view, 7> kSearchStrategies = {
    "auto", "exhaustive", "random", "greedy_ils", "genetic", "bayes", "mcts"};
bool is_search_strategy(std::string_view name);
std::string search_strategies_text();  // "auto, exhaustive, random, ..."

// The names "compiler" accepts: which compiler builds the variants. "auto": NVRTC when it compiles
// the original, else nvcc (a kernel among host code).
inline constexpr std::array<std::string_view, 3> kCompilers = {"auto", "nvrtc", "nvcc"};

// How the user's target compiles the kernel (its CUDA flags, include folders, separable
// compilation), read from the build by `optiml build`, never from the spec file: every variant
// is compiled with them, and the original too (docs/caching.md: the baseline is the user's build).
struct TargetFlags {
    std::vector<std::string> options;  // device options in nvcc's spelling (-D, -std=, -G, ...)
    std::vector<std::filesystem::path> include_dirs;  // absolute, searched after the spec's
    // Those inside the project (source or build tree, OptiML's own left out): the headers found
    // there are hashed into the key as the kernel's own are.
    std::vector<std::filesystem::path> project_include_dirs;
    // Those outside the project that are neither the CUDA toolkit's, the system's nor OptiML's
    // own (a library beside it): their headers are hashed too, named by their path inside.
    std::vector<std::filesystem::path> outside_include_dirs;
    bool relocatable = false;  // CUDA_SEPARABLE_COMPILATION (-rdc=true)
    // What the build line shows of them: `options`, then each include folder inside the project
    // as "-I<path relative to the source root>", then "-rdc=true". The key holds those of them
    // that can change the device code (identity/kernel_key.h).
    std::vector<std::string> key_options;
    bool empty() const { return options.empty() && include_dirs.empty() && !relocatable; }
};

struct Spec {
    std::filesystem::path file;       // absolute path of the spec file
    std::string name;                 // C++ identifier; generated header optiml/<name>.h
    std::filesystem::path source;     // absolute path of the kernel source
    std::string source_as_written;    // relative to the spec file, as in the JSON
    std::string kernel;               // NVRTC name expression: "saxpy" or "gemm<float>"
    std::vector<Argument> arguments;  // in the kernel's parameter order
    std::vector<LaunchArgument> launch_arguments;  // the launcher's, after `arguments`
    Launch launch;
    std::vector<Parameter> parameters;
    std::vector<expr::Expr> constraints;  // a configuration is valid when all are non-zero
    std::vector<ConstantSymbol> constants;
    // Derived from the "generator" fills of arguments and constants: one per source, in the order
    // of first use.
    std::vector<Generator> generators;
    std::vector<std::string> nvrtc_options;
    std::string compiler = "auto";          // one of kCompilers
    std::vector<std::string> include_dirs;  // relative to the spec file, as written
    Check check;
    // The problems the kernel is tuned at and dispatches among, each setting integer scalar (and
    // launch) arguments; empty: one problem, the arguments' own values.
    std::vector<ProblemSize> problems;
    Timing timing;
    Budget budget;
    TargetFlags target;  // from the build (optiml build --compile-commands), not the file

    // The spec as canonical JSON (sorted keys, defaults filled in, no absolute paths):
    // what the cache key hashes.
    nlohmann::json normalized;

    // Parameter name -> default value.
    std::map<std::string, std::int64_t> default_config() const;
    // Integer scalar arguments and launch arguments (by name; at `size` when given, else at their
    // `value`) merged with `config`: where counts, geometry and constraints are evaluated.
    expr::Env environment(const std::map<std::string, std::int64_t>& config,
                          const ProblemSize* size = nullptr) const;
};

// A string value that starts with this is a decision still to make (optiml init writes them):
// the loader rejects a spec holding one, naming its field.
inline constexpr std::string_view kUnfinishedMarker = "TODO:";

// The spec as tuned at one of its problems: its integer scalar and launch arguments at the
// problem's values, no problems of its own, and its normalized form (the key) made again.
// Throws std::invalid_argument for a name that is neither kind of argument.
Spec at_problem(const Spec& spec, const ProblemSize& problem);

Spec load_spec(const std::filesystem::path& file);
Spec parse_spec(const nlohmann::json& json, const std::filesystem::path& file);

}  // namespace optiml::spec
