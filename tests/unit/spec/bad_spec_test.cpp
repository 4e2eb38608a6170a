// A table of bad specs: each a small mutation (a JSON Patch) of the valid fixture, and the exact
// message it must produce: "<file>: <field>: <problem>; expected <what>".
#include <gtest/gtest.h>

#include <string>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::data_dir;
using testing::fixture_json;
using testing::fixture_path;

struct BadSpec {
    const char* name;
    const char* patch;    // RFC 6902 JSON Patch applied to the fixture
    const char* message;  // after "<file>: "; "{data}" stands for the fixture's folder
};

const char* const kIdentifierExpected =
    "a C++ identifier (letters, digits and '_', not starting with a digit, not a keyword)";
const char* const kKnownNames =
    "an integer scalar argument or a parameter: block_size_x, items_per_thread or n";
const char* const kDefaults =
    "with the default configuration (block_size_x=256, items_per_thread=1, n=33554432)";

const BadSpec kBadSpecs[] = {
    {"TypoInTopLevelField", R"p([{"op": "add", "path": "/paramters", "value": []}])p",
     "paramters: unknown field 'paramters' (did you mean 'parameters'?); expected one of "
     "arguments, budget, check, compiler, constants, constraints, include_dirs, kernel, launch, "
     "launch_arguments, name, nvrtc_options, parameters, problems, source, timing"},
    {"MissingName", R"p([{"op": "remove", "path": "/name"}])p", "name: missing; expected {id}"},
    {"NameStartsWithDigit", R"p([{"op": "replace", "path": "/name", "value": "2fast"}])p",
     "name: \"2fast\" is not a C++ identifier; expected {id}"},
    {"NameIsKeyword", R"p([{"op": "replace", "path": "/name", "value": "class"}])p",
     "name: \"class\" is a C++ keyword; expected {id}"},
    {"NameIsNumber", R"p([{"op": "replace", "path": "/name", "value": 42}])p",
     "name: got 42; expected {id}"},
    {"SourceMissing", R"p([{"op": "replace", "path": "/source", "value": "missing.cu"}])p",
     "source: \"missing.cu\" not found (looked for {data}/missing.cu); expected an existing file, "
     "a path relative to the spec file"},
    {"SourceAbsolute", R"p([{"op": "replace", "path": "/source", "value": "/src/saxpy.cu"}])p",
     "source: \"/src/saxpy.cu\" is absolute (the cache key must not depend on where the project "
     "lives); expected an existing file, a path relative to the spec file"},
    {"IncludeDirMissing", R"p([{"op": "replace", "path": "/include_dirs/0", "value": "nope"}])p",
     "include_dirs[0]: \"nope\" not found (looked for {data}/nope); expected an existing "
     "directory, a path relative to the spec file"},
    {"KernelEmpty", R"p([{"op": "replace", "path": "/kernel", "value": " "}])p",
     "kernel: got an empty name; expected the kernel's name or NVRTC name expression, e.g. "
     "\"gemm<float, 4>\""},
    {"NoArguments", R"p([{"op": "replace", "path": "/arguments", "value": []}])p",
     "arguments: got an empty array; expected at least one argument (the kernel's parameters, in "
     "order)"},
    {"UnknownType", R"p([{"op": "replace", "path": "/arguments/2/type", "value": "float"}])p",
     "arguments[2].type: unknown type \"float\"; expected one of int8, int16, int32, int64, uint8, "
     "uint16, uint32, uint64, float32 or float64"},
    {"PointerNotBoolean",
     R"p([{"op": "replace", "path": "/arguments/2/pointer", "value": "yes"}])p",
     "arguments[2].pointer: got the string \"yes\"; expected true (an array in device memory) or "
     "false (a scalar)"},
    {"ScalarTooLargeForType",
     R"p([{"op": "replace", "path": "/arguments/0/value", "value": 3000000000}])p",
     "arguments[0].value: got 3000000000; expected an integer that fits int32 (-2147483648 to "
     "2147483647)"},
    {"IntegerScalarNotInteger",
     R"p([{"op": "replace", "path": "/arguments/0/value", "value": 2.5}])p",
     "arguments[0].value: got 2.5; expected an integer that fits int32 (-2147483648 to "
     "2147483647)"},
    {"FloatScalarNotNumber",
     R"p([{"op": "replace", "path": "/arguments/1/value", "value": "fast"}])p",
     "arguments[1].value: got the string \"fast\"; expected the value used while tuning: a number"},
    {"ScalarMissingValue", R"p([{"op": "remove", "path": "/arguments/1/value"}])p",
     "arguments[1].value: missing; expected the value used while tuning: a number"},
    {"ScalarWithCount", R"p([{"op": "add", "path": "/arguments/0/count", "value": "n"}])p",
     "arguments[0].count: only pointer arguments have a count; expected \"pointer\": true for an "
     "array, or no \"count\" for a scalar"},
    {"ScalarWithFill",
     R"p([{"op": "add", "path": "/arguments/1/fill", "value": {"kind": "constant", "value": 1}}])p",
     "arguments[1].fill: only pointer arguments have a fill; expected \"pointer\": true for an "
     "array, or no \"fill\" for a scalar"},
    {"PointerWithValue", R"p([{"op": "add", "path": "/arguments/2/value", "value": 1}])p",
     "arguments[2].value: a pointer argument has no value; expected \"count\" and \"fill\" to "
     "describe the array"},
    {"PointerMissingCount", R"p([{"op": "remove", "path": "/arguments/2/count"}])p",
     "arguments[2].count: missing; expected the number of elements, as an integer expression: a "
     "string such as \"ceil_div(n, block_size_x)\" or an integer"},
    {"UnknownRole", R"p([{"op": "replace", "path": "/arguments/2/role", "value": "readonly"}])p",
     "arguments[2].role: unknown role \"readonly\"; expected one of input, output or inout"},
    {"NoOutput", R"p([{"op": "replace", "path": "/arguments/3/role", "value": "input"}])p",
     "arguments: no argument is an output; expected at least one pointer argument with \"role\": "
     "\"output\" or \"inout\" (what the check compares)"},
    {"OutputWithFill", R"p([{"op": "replace", "path": "/arguments/3/role", "value": "output"}])p",
     "arguments[3].fill: an output argument has no fill (the kernel writes it); expected role "
     "\"inout\" if the kernel reads the initial contents, or no fill"},
    {"UnknownFillKind",
     R"p([{"op": "replace", "path": "/arguments/2/fill/kind", "value": "gaussian"}])p",
     "arguments[2].fill.kind: unknown fill kind \"gaussian\"; expected one of uniform, normal, "
     "constant, iota, file or generator"},
    {"TypoInFillField", R"p([{"op": "add", "path": "/arguments/2/fill/sed", "value": 3}])p",
     "arguments[2].fill.sed: unknown field 'sed' (did you mean 'seed'?); expected one of kind, "
     "max, min, seed"},
    {"FieldOfAnotherFillKind", R"p([{"op": "add", "path": "/arguments/2/fill/mean", "value": 0}])p",
     "arguments[2].fill.mean: unknown field 'mean'; expected one of kind, max, min, seed"},
    {"UniformMaxBelowMin", R"p([{"op": "replace", "path": "/arguments/2/fill/max", "value": -2}])p",
     "arguments[2].fill.max: max is below min (-1.0); expected max >= min"},
    {"NegativeStddev", R"p([{"op": "replace", "path": "/arguments/3/fill/stddev", "value": -1}])p",
     "arguments[3].fill.stddev: got -1; expected a number >= 0"},
    {"NegativeSeed", R"p([{"op": "replace", "path": "/arguments/2/fill/seed", "value": -1}])p",
     "arguments[2].fill.seed: got -1; expected a non-negative integer"},
    {"IntegerFillOutOfRange",
     R"p([{"op": "replace", "path": "/arguments/2/type", "value": "int8"},
         {"op": "replace", "path": "/arguments/2/fill/min", "value": -200}])p",
     "arguments[2].fill.min: got -200; expected an integer that fits int8 (-128 to 127)"},
    {"ConstantFillWithoutValue",
     R"p([{"op": "replace", "path": "/arguments/2/fill", "value": {"kind": "constant"}}])p",
     "arguments[2].fill.value: missing; expected a number"},
    {"DuplicateArgumentName", R"p([{"op": "replace", "path": "/arguments/3/name", "value": "x"}])p",
     "arguments[3].name: \"x\" is already the name of arguments[2]; expected names unique across "
     "arguments, launch arguments, parameters and constants"},
    {"ParameterClashesWithArgument",
     R"p([{"op": "replace", "path": "/parameters/0/name", "value": "n"}])p",
     "parameters[0].name: \"n\" is already the name of arguments[0]; expected names unique across "
     "arguments, launch arguments, parameters and constants"},
    {"ConstantClashesWithParameter",
     R"p([{"op": "replace", "path": "/constants/0/name", "value": "block_size_x"}])p",
     "constants[0].name: \"block_size_x\" is already the name of parameters[0]; expected names "
     "unique across arguments, launch arguments, parameters and constants"},
    {"LaunchArgumentClashesWithArgument",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "n", "type": "int32", "value": 4}]}])p",
     "launch_arguments[0].name: \"n\" is already the name of arguments[0]; expected names unique "
     "across arguments, launch arguments, parameters and constants"},
    {"ParameterClashesWithLaunchArgument",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "block_size_x", "type": "int32", "value": 4}]},
         {"op": "replace", "path": "/launch/grid/1", "value": "block_size_x"}])p",
     "parameters[0].name: \"block_size_x\" is already the name of launch_arguments[0]; expected "
     "names unique across arguments, launch arguments, parameters and constants"},
    {"LaunchArgumentUsedNowhere",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "height", "type": "int32", "value": 4}]}])p",
     "launch_arguments[0].name: 'height' is used by no launch expression; expected a name that "
     "launch.block, launch.grid or launch.shared_memory_bytes uses (or no such launch argument)"},
    {"LaunchArgumentUsedOnlyByAConstraint",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "height", "type": "int32", "value": 4}]},
         {"op": "add", "path": "/constraints/-", "value": "height > 0"}])p",
     "launch_arguments[0].name: 'height' is used by no launch expression; expected a name that "
     "launch.block, launch.grid or launch.shared_memory_bytes uses (or no such launch argument)"},
    {"FloatLaunchArgument",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "height", "type": "float32", "value": 4}]},
         {"op": "replace", "path": "/launch/grid/1", "value": "height"}])p",
     "launch_arguments[0].type: a launch argument cannot be float32 (launch expressions are "
     "integer); expected an integer type: int8, int16, int32, int64, uint8, uint16, uint32 or "
     "uint64"},
    {"LaunchArgumentOutOfRange",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "height", "type": "int8", "value": 300}]},
         {"op": "replace", "path": "/launch/grid/1", "value": "height"}])p",
     "launch_arguments[0].value: got 300; expected an integer that fits int8 (-128 to 127)"},
    {"LaunchArgumentWithoutValue",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "height", "type": "int32"}]}])p",
     "launch_arguments[0].value: missing; expected the value used while tuning: an integer that "
     "fits int32 (-2147483648 to 2147483647)"},
    {"LaunchArgumentIsNoPointer",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "height", "type": "int32", "value": 4, "pointer": true}]}])p",
     "launch_arguments[0].pointer: unknown field 'pointer'; expected one of name, type, value"},
    {"LaunchArgumentZeroInGrid",
     R"p([{"op": "add", "path": "/launch_arguments", "value": [{"name": "height", "type": "int32", "value": 0}]},
         {"op": "replace", "path": "/launch/grid/1", "value": "height"}])p",
     "launch.grid[1]: 'height' is 0 with the default configuration (block_size_x=256, "
     "height=0, items_per_thread=1, n=33554432); expected at least 1"},
    {"ParameterNamedLikeAFunction",
     R"p([{"op": "replace", "path": "/parameters/0/name", "value": "min"}])p",
     "parameters[0].name: \"min\" is a function of the expression language; expected another name"},
    {"UnknownNameInGrid",
     R"p([{"op": "replace", "path": "/launch/grid/0", "value": "ceil_div(n, block_size_x * item_per_thread)"}])p",
     "launch.grid[0]: unknown name 'item_per_thread'; expected {known}"},
    {"FloatArgumentInBlock", R"p([{"op": "replace", "path": "/launch/block/0", "value": "a"}])p",
     "launch.block[0]: 'a' is a float32 argument, which expressions cannot use; expected {known}"},
    {"PointerArgumentInCount",
     R"p([{"op": "replace", "path": "/arguments/2/count", "value": "x"}])p",
     "arguments[2].count: 'x' is a pointer argument, which expressions cannot use; expected "
     "{known}"},
    {"UnknownNameInConstraint",
     R"p([{"op": "replace", "path": "/constraints/0", "value": "threads <= 1024"}])p",
     "constraints[0]: unknown name 'threads'; expected {known}"},
    {"ExpressionSyntax",
     R"p([{"op": "replace", "path": "/launch/grid/0", "value": "ceil_div(n, )"}])p",
     "launch.grid[0]: bad expression \"ceil_div(n, )\": unexpected ')' at column 13; expected a "
     "number, a name, a function call or '('"},
    {"ExpressionNotIntegerOrString",
     R"p([{"op": "replace", "path": "/launch/grid/0", "value": 1.5}])p",
     "launch.grid[0]: got 1.5; expected an integer expression: a string such as \"ceil_div(n, "
     "block_size_x)\" or an integer"},
    {"GridEmpty", R"p([{"op": "replace", "path": "/launch/grid", "value": []}])p",
     "launch.grid: got 0 items; expected an array of 1 to 3 expressions (x, y, z; missing ones are "
     "1)"},
    {"BlockFourDimensions",
     R"p([{"op": "replace", "path": "/launch/block", "value": [1, 1, 1, 1]}])p",
     "launch.block: got 4 items; expected an array of 1 to 3 expressions (x, y, z; missing ones "
     "are 1)"},
    {"GridMissing", R"p([{"op": "remove", "path": "/launch/grid"}])p",
     "launch.grid: missing; expected the blocks per grid: an array of 1 to 3 expressions"},
    {"LaunchNotObject", R"p([{"op": "replace", "path": "/launch", "value": "big"}])p",
     "launch: got the string \"big\"; expected an object with block, grid and optionally "
     "shared_memory_bytes"},
    {"DefaultBlockTooLarge",
     R"p([{"op": "replace", "path": "/launch/block", "value": ["block_size_x", 8]}])p",
     "launch.block: 256 x 8 x 1 threads per block {defaults}; expected at most 1024 threads per "
     "block"},
    {"DefaultGridZero", R"p([{"op": "replace", "path": "/launch/grid/0", "value": "n - n"}])p",
     "launch.grid[0]: 'n - n' is 0 {defaults}; expected at least 1"},
    {"DefaultGridDividesByZero",
     R"p([{"op": "replace", "path": "/launch/grid/1", "value": "n / (items_per_thread - 1)"}])p",
     "launch.grid[1]: 'n / (items_per_thread - 1)' fails {defaults}: division by zero in "
     "'n / (items_per_thread - 1)'; expected an expression that evaluates for the defaults (the "
     "original kernel)"},
    {"NegativeSharedMemory",
     R"p([{"op": "replace", "path": "/launch/shared_memory_bytes", "value": "-1"}])p",
     "launch.shared_memory_bytes: '-1' is -1 {defaults}; expected a number of bytes >= 0"},
    {"EmptyParameterValues",
     R"p([{"op": "replace", "path": "/parameters/0/values", "value": []}])p",
     "parameters[0].values: got an empty array; expected a non-empty array of distinct integers"},
    {"DuplicateParameterValue",
     R"p([{"op": "replace", "path": "/parameters/1/values", "value": [1, 2, 2]}])p",
     "parameters[1].values[2]: duplicate value 2; expected a non-empty array of distinct integers"},
    {"ParameterValueNotInteger",
     R"p([{"op": "replace", "path": "/parameters/0/values/0", "value": "64"}])p",
     "parameters[0].values[0]: got the string \"64\"; expected an integer"},
    {"DefaultNotAValue", R"p([{"op": "replace", "path": "/parameters/0/default", "value": 100}])p",
     "parameters[0].default: 100 is not one of the values [64,128,256,512,1024]; expected the "
     "value the kernel's own #ifndef default has, one of the values"},
    {"DefaultMissing", R"p([{"op": "remove", "path": "/parameters/1/default"}])p",
     "parameters[1].default: missing; expected the value the kernel's own #ifndef default has, one "
     "of the values"},
    {"DefaultsViolateConstraint",
     R"p([{"op": "replace", "path": "/constraints/0", "value": "block_size_x * items_per_thread <= 128"}])p",
     "constraints[0]: 'block_size_x * items_per_thread <= 128' is false {defaults}; expected the "
     "defaults (the original kernel) to satisfy every constraint"},
    {"ConstantCountZero", R"p([{"op": "replace", "path": "/constants/0/count", "value": 0}])p",
     "constants[0].count: '0' is 0 {defaults}; expected at least 1 element"},
    {"ConstantWithRole", R"p([{"op": "add", "path": "/constants/0/role", "value": "input"}])p",
     "constants[0].role: unknown field 'role'; expected one of count, fill, name, type"},
    {"ArchitectureOption",
     R"p([{"op": "add", "path": "/nvrtc_options/-", "value": "-arch=sm_90"}])p",
     "nvrtc_options[1]: \"-arch=sm_90\" sets the architecture, which OptiML chooses per target; "
     "expected no architecture option"},
    {"DefineOfAParameter",
     R"p([{"op": "add", "path": "/nvrtc_options/-", "value": "-Dblock_size_x=128"}])p",
     "nvrtc_options[1]: \"-Dblock_size_x=128\" defines the tunable parameter block_size_x; "
     "expected no -D for a parameter (OptiML defines each variant's values)"},
    {"NegativeRtol", R"p([{"op": "replace", "path": "/check/rtol", "value": -1}])p",
     "check.rtol: got -1; expected a number >= 0"},
    {"TypoInCheck", R"p([{"op": "add", "path": "/check/tolerance", "value": 0.1}])p",
     "check.tolerance: unknown field 'tolerance'; expected one of atol, compare, deterministic, "
     "extra_sizes, rtol, trials"},
    {"ZeroTrials", R"p([{"op": "add", "path": "/check/trials", "value": 0}])p",
     "check.trials: got 0; expected an integer from 1 to 100"},
    {"DeterministicNotBoolean",
     R"p([{"op": "add", "path": "/check/deterministic", "value": "yes"}])p",
     "check.deterministic: got the string \"yes\"; expected true or false"},
    {"OneProblem", R"p([{"op": "add", "path": "/problems", "value": [{"n": 1024}]}])p",
     "problems: got 1 sizes; expected an array of 2 to 16 sizes such as {\"n\": 1024}, or "
     "{\"powers_of_two\": {\"n\": [1024, 1048576]}}"},
    {"RepeatedProblem",
     R"p([{"op": "add", "path": "/problems", "value": [{"n": 1024}, {"n": 1024}]}])p",
     "problems[1]: the same size as problems[0]; expected each size once"},
    {"ProblemOfAnUnknownArgument",
     R"p([{"op": "add", "path": "/problems", "value": [{"n": 1024}, {"m": 5}]}])p",
     "problems[1].m: 'm' is not an integer scalar argument; expected an integer scalar argument: "
     "n"},
    {"PowersOfTwoOfAFloat",
     R"p([{"op": "add", "path": "/problems", "value": {"powers_of_two": {"a": [1, 8]}}}])p",
     "problems.powers_of_two.a: 'a' is not an integer scalar argument; expected an integer scalar "
     "argument: n"},
    {"PowersOfTwoBackwards",
     R"p([{"op": "add", "path": "/problems", "value": {"powers_of_two": {"n": [64, 8]}}}])p",
     "problems.powers_of_two.n[1]: got 8; expected an integer above the lowest, 64"},
    {"PowersOfTwoTooMany",
     R"p([{"op": "add", "path": "/problems", "value": {"powers_of_two": {"n": [1, 1000000]}}}])p",
     "problems.powers_of_two.n: holds 20 powers of two; expected bounds holding 2 to 16 powers of "
     "two"},
    {"PowersOfTwoBeyondTheType",
     R"p([{"op": "add", "path": "/problems", "value": {"powers_of_two": {"n": [1, 4294967296]}}}])p",
     "problems.powers_of_two.n[1]: got 4294967296; expected an integer that fits int32 "
     "(-2147483648 to 2147483647)"},
    {"ProblemWithNoElements",
     R"p([{"op": "add", "path": "/problems", "value": [{"n": 1024}, {"n": 0}]}])p",
     "problems[1]: arguments[2].count: 'n' is 0 with the default configuration "
     "(block_size_x=256, items_per_thread=1, n=0); expected at least 1 element, at every problem "
     "the spec lists"},
    {"ExtraSizesNotAnArray",
     R"p([{"op": "add", "path": "/check/extra_sizes", "value": {"n": 1000003}}])p",
     "check.extra_sizes: got an object; expected an array of at most 8 objects such as {\"n\": "
     "1000003}"},
    {"ExtraSizeEmpty", R"p([{"op": "add", "path": "/check/extra_sizes", "value": [{}]}])p",
     "check.extra_sizes[0]: got an empty object; expected an object that gives integer scalar "
     "arguments other values, e.g. {\"n\": 1000003}"},
    {"ExtraSizeUnknownArgument",
     R"p([{"op": "add", "path": "/check/extra_sizes", "value": [{"m": 5}]}])p",
     "check.extra_sizes[0].m: 'm' is not an integer scalar argument; expected an integer scalar "
     "argument: n"},
    {"ExtraSizeFloatArgument",
     R"p([{"op": "add", "path": "/check/extra_sizes", "value": [{"a": 5}]}])p",
     "check.extra_sizes[0].a: 'a' is not an integer scalar argument; expected an integer scalar "
     "argument: n"},
    {"ExtraSizeOutOfRange",
     R"p([{"op": "add", "path": "/check/extra_sizes", "value": [{"n": 3000000000}]}])p",
     "check.extra_sizes[0].n: got 3000000000; expected an integer that fits int32 (-2147483648 "
     "to 2147483647)"},
    {"ExtraSizeIsTheMainSize",
     R"p([{"op": "add", "path": "/check/extra_sizes", "value": [{"n": 33554432}]}])p",
     "check.extra_sizes[0]: this is the main problem size (every value equals the argument's "
     "own); expected a size that differs from the arguments' values in at least one of them"},
    {"ExtraSizeTwice",
     R"p([{"op": "add", "path": "/check/extra_sizes", "value": [{"n": 5}, {"n": 5}]}])p",
     "check.extra_sizes[1]: the same size as extra_sizes[0]; expected each size once"},
    {"TooManyExtraSizes",
     R"p([{"op": "add", "path": "/check/extra_sizes",
           "value": [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}, {"n": 5}, {"n": 6}, {"n": 7},
                     {"n": 8}, {"n": 9}]}])p",
     "check.extra_sizes: got 9 sizes; expected an array of at most 8 objects such as {\"n\": "
     "1000003}"},
    {"ExtraSizeWithoutElements",
     R"p([{"op": "add", "path": "/check/extra_sizes", "value": [{"n": 0}]}])p",
     "check.extra_sizes[0]: arguments[2].count: 'n' is 0 with the default configuration "
     "(block_size_x=256, items_per_thread=1, n=0); expected at least 1 element, at every size in "
     "check.extra_sizes"},
    {"CompareMissing", R"p([{"op": "add", "path": "/check/compare", "value": "nope.cpp"}])p",
     "check.compare: \"nope.cpp\" not found (looked for {data}/nope.cpp); expected an existing "
     "file, a path relative to the spec file"},
    {"CompareAbsolute", R"p([{"op": "add", "path": "/check/compare", "value": "/compare.cpp"}])p",
     "check.compare: \"/compare.cpp\" is absolute (the cache key must not depend on where the "
     "project lives); expected an existing file, a path relative to the spec file"},
    {"TimingNotAnObject", R"p([{"op": "add", "path": "/timing", "value": "rotate"}])p",
     "timing: got the string \"rotate\"; expected an object with cold_cache and decide_by"},
    {"UnknownColdCacheMethod",
     R"p([{"op": "add", "path": "/timing", "value": {"cold_cache": "warm"}}])p",
     "timing.cold_cache: unknown method \"warm\"; expected \"flush\" or \"rotate\""},
    {"TypoInTiming", R"p([{"op": "add", "path": "/timing", "value": {"coldcache": "rotate"}}])p",
     "timing.coldcache: unknown field 'coldcache' (did you mean 'cold_cache'?); expected one of "
     "cold_cache, decide_by"},
    {"ZeroEvaluations", R"p([{"op": "replace", "path": "/budget/evaluations", "value": 0}])p",
     "budget.evaluations: got 0; expected an integer >= 1 (variants to measure), or \"auto\" "
     "(fitted to the space)"},
    {"WordEvaluations", R"p([{"op": "replace", "path": "/budget/evaluations", "value": "many"}])p",
     "budget.evaluations: got the string \"many\"; expected an integer >= 1 (variants to measure), "
     "or "
     "\"auto\" (fitted to the space)"},
    {"ZeroSeconds", R"p([{"op": "replace", "path": "/budget/seconds", "value": 0}])p",
     "budget.seconds: got 0; expected a number > 0 (seconds of tuning)"},
    // The kernel source, read at load time: shapes that would only fail later, inside generated
    // code or at link time, with no word of OptiML.
    {"KernelIsATemplateNamedWithoutArguments",
     R"p([{"op": "replace", "path": "/source", "value": "template_saxpy.cu"}])p",
     "kernel: \"saxpy\" is a function template (template_saxpy.cu line 7), and a template has no "
     "single kernel to tune; expected a name expression with its template arguments, e.g. "
     "\"saxpy<32>\" or \"saxpy<float>\""},
    {"SourceDefinesMain",
     R"p([{"op": "replace", "path": "/source", "value": "saxpy_with_main.cu"},
         {"op": "add", "path": "/compiler", "value": "nvrtc"}])p",
     "source: \"saxpy_with_main.cu\" defines main() (line 11); with \"compiler\": \"nvrtc\" the "
     "launcher OptiML generates compiles this file into a translation unit of its own, so the "
     "program would define main twice; expected a file with the kernel and its device code only, "
     "or \"compiler\": \"auto\" or \"nvcc\" (which leave the kernel where it is)"},
    {"UnknownCompiler", R"p([{"op": "add", "path": "/compiler", "value": "clang"}])p",
     "compiler: unknown compiler \"clang\"; expected one of auto, nvrtc, nvcc"},
    {"UnknownStrategy", R"p([{"op": "add", "path": "/budget/strategy", "value": "anneal"}])p",
     "budget.strategy: unknown strategy \"anneal\"; expected one of auto, exhaustive, random, "
     "greedy_ils, genetic, bayes, mcts"},
    {"StrategyNotAString", R"p([{"op": "add", "path": "/budget/strategy", "value": 3}])p",
     "budget.strategy: got 3; expected one of auto, exhaustive, random, greedy_ils, genetic, "
     "bayes, mcts"},
};

std::string expand(std::string text) {
    const std::pair<std::string, std::string> placeholders[] = {
        {"{id}", kIdentifierExpected},
        {"{known}", kKnownNames},
        {"{defaults}", kDefaults},
        {"{data}", data_dir().lexically_normal().string()}};
    for (const auto& [placeholder, value] : placeholders) {
        for (std::size_t at = text.find(placeholder); at != std::string::npos;
             at = text.find(placeholder, at + value.size())) {
            text.replace(at, placeholder.size(), value);
        }
    }
    return text;
}

class BadSpecs : public ::testing::TestWithParam<BadSpec> {};

TEST_P(BadSpecs, FailWithOneMessageNamingFileFieldAndExpectation) {
    const BadSpec& bad = GetParam();
    const nlohmann::json spec = fixture_json().patch(nlohmann::json::parse(bad.patch));
    try {
        (void)parse_spec(spec, fixture_path());
        FAIL() << "accepted";
    } catch (const SpecError& error) {
        EXPECT_EQ(std::string(error.what()), fixture_path().string() + ": " + expand(bad.message));
    }
}

INSTANTIATE_TEST_SUITE_P(Table, BadSpecs, ::testing::ValuesIn(kBadSpecs),
                         [](const ::testing::TestParamInfo<BadSpec>& test_case) {
                             return std::string(test_case.param.name);
                         });

TEST(BadSpecs, TheUnmutatedFixtureIsValid) {
    // Guards the table: each case fails because of its mutation, not because the base is bad.
    EXPECT_NO_THROW((void)parse_spec(fixture_json(), fixture_path()));
}

}  // namespace
}  // namespace optiml::spec
