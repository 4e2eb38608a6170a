// Specs from captured launches (constructed records, as liboptiml-activity.so writes them): each
// one is written beside its kernel source and loaded by the real spec loader, so what is checked
// is what `optiml tune --spec` would tune on.
#include "driver/init/detail/captured_spec.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include "driver/init/spec_skeleton.h"
#include "driver/source/rewrite_error.h"
#include "driver/spec/spec.h"

namespace optiml::init {
namespace {

namespace fs = std::filesystem;
using profile::activity::CapturedLaunch;
using profile::activity::CapturedParameter;
using profile::activity::DeviceAllocation;

const char* const kAxpy = R"(#ifndef block_size_x
#define block_size_x 256
#endif
__global__ void axpy(int n, float a, const float* __restrict__ x, float* y) {
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

template <typename T>
CapturedParameter scalar(T value, std::uint64_t offset) {
    CapturedParameter p;
    p.offset = offset;
    p.size = sizeof(T);
    p.bytes.resize(sizeof(T));
    std::memcpy(p.bytes.data(), &value, sizeof(T));
    return p;
}

CapturedParameter pointer(std::uint64_t offset, std::uint64_t allocation_offset,
                          std::uint64_t allocation_size) {
    CapturedParameter p = scalar<std::uint64_t>(0x7f0000000000 + allocation_offset, offset);
    p.allocation = DeviceAllocation{allocation_offset, allocation_size};
    return p;
}

CapturedLaunch axpy_launch(int n, float a, std::array<std::uint32_t, 3> grid,
                           std::array<std::uint32_t, 3> block) {
    CapturedLaunch launch;
    launch.name = "_Z4axpyifPKfPf";
    launch.demangled_name = "axpy(int, float, float const*, float*)";
    launch.grid = grid;
    launch.block = block;
    launch.parameters = {scalar(n, 0), scalar(a, 4),
                         // x points 1 KiB into its allocation: only the bytes after it count.
                         pointer(8, 1024, 1024 + 4 * static_cast<std::uint64_t>(n)),
                         pointer(16, 0, 4 * static_cast<std::uint64_t>(n))};
    return launch;
}

class CapturedSpecTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-captured-spec-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Writes the source and the spec the launch gives, and loads the spec.
    spec::Spec load(const std::string& source, const std::string& kernel,
                    const CapturedLaunch& launch, const std::string& data_folder = "") {
        std::ofstream(dir_ / "kernel.cu") << source;
        result_ = captured_spec(source, "kernel.cu", kernel, launch, "./app 1", data_folder);
        std::ofstream(dir_ / "kernel.optiml.json") << result_.text;
        return spec::load_spec(dir_ / "kernel.optiml.json");
    }
    fs::path dir_;
    CapturedSpec result_;
};

TEST_F(CapturedSpecTest, ScalarsCountsAndAGridThatFollowsTheBlockSize) {
    const spec::Spec s = load(kAxpy, "axpy", axpy_launch(1 << 20, 2.5f, {4096, 1, 1}, {256, 1, 1}));
    ASSERT_EQ(s.arguments.size(), 4u);
    EXPECT_EQ(s.arguments[0].integer_value, 1 << 20);
    EXPECT_EQ(s.arguments[1].value, 2.5);
    EXPECT_EQ(s.arguments[2].count.text(), "n");  // 4 MiB after the pointer: n floats
    EXPECT_EQ(s.arguments[2].role, spec::Role::Input);
    EXPECT_EQ(s.arguments[3].count.text(), "n");
    EXPECT_EQ(s.arguments[3].role, spec::Role::InOut);  // written: inout needs no decision
    EXPECT_EQ(s.launch.block[0].text(), "block_size_x");
    EXPECT_EQ(s.launch.grid[0].text(), "ceil_div(n, block_size_x)");
    const expr::Env env = s.environment(s.default_config());
    EXPECT_EQ(s.launch.grid[0].eval(env), 4096);
    EXPECT_EQ(s.launch.block[1].eval(env), 1);
    EXPECT_EQ(s.launch.shared_memory_bytes.eval(env), 0);
    ASSERT_EQ(s.parameters.size(), 1u);
    EXPECT_EQ(s.parameters[0].default_value, 256);
    EXPECT_TRUE(result_.snapshots.empty());
    EXPECT_TRUE(result_.notes.empty());
    EXPECT_NE(result_.text.find("// Captured from `./app 1`:"), std::string::npos);
    // The header's comment quotes the marker; a complete spec still counts none.
    EXPECT_NE(result_.text.find("\"TODO: ...\""), std::string::npos);
    EXPECT_EQ(count_markers(result_.text), 0u);
}

// A program that launched the kernel at several sizes: every distinct n (another a, another
// buffer or another block alone is not another size) becomes one of the spec's problems, the most
// launched 16 of them, in ascending order, each with how often and how it was launched; the spec
// loads with them, its arguments at the first launch's values.
TEST_F(CapturedSpecTest, EverySizeTheProgramLaunchedAtBecomesAProblem) {
    CapturedLaunch launch = axpy_launch(1 << 20, 2.5f, {4096, 1, 1}, {256, 1, 1});
    const auto shape = [](int n, float a, std::uint32_t grid, std::uint64_t launches) {
        profile::activity::LaunchShape made =
            profile::activity::shape_of(axpy_launch(n, a, {grid, 1, 1}, {256, 1, 1}));
        made.launches = launches;
        return made;
    };
    launch.shapes = {shape(1 << 20, 2.5f, 4096, 3), shape(1024, 2.5f, 4, 10),
                     shape(1024, 0.5f, 4, 2), shape(1 << 16, 2.5f, 256, 1)};
    const spec::Spec s = load(kAxpy, "axpy", launch);
    EXPECT_EQ(s.arguments[0].integer_value, 1 << 20);
    ASSERT_EQ(s.problems.size(), 3u);
    EXPECT_EQ(s.problems[0].scalars, (std::map<std::string, std::int64_t>{{"n", 1024}}));
    EXPECT_EQ(s.problems[1].scalars, (std::map<std::string, std::int64_t>{{"n", 65536}}));
    EXPECT_EQ(s.problems[2].scalars, (std::map<std::string, std::int64_t>{{"n", 1048576}}));
    EXPECT_NE(result_.text.find("// The program launched axpy at 3 sizes"), std::string::npos)
        << result_.text;
    EXPECT_NE(result_.text.find("    // 12 launches, the first at grid [4, 1, 1], block [256, 1, "
                                "1]\n    {\"n\": 1024},"),
              std::string::npos)
        << result_.text;
    EXPECT_NE(result_.text.find("    // 1 launch, the first at grid [256, 1, 1]"),
              std::string::npos);

    // More than 16 sizes: the 16 most launched, and how many launches the others had.
    launch.shapes.clear();
    for (int k = 0; k < 20; ++k)
        launch.shapes.push_back(shape(1024 * (k + 1), 2.5f, 4, k < 4 ? 1 : 5));
    launch.other_launches = 7;
    const spec::Spec many = load(kAxpy, "axpy", launch);
    ASSERT_EQ(many.problems.size(), 16u);
    EXPECT_EQ(many.problems[0].scalars.at("n"), 5 * 1024);
    EXPECT_NE(result_.text.find("The 16 most launched are here; 11 launches at other sizes are "
                                "not."),
              std::string::npos)
        << result_.text;

    // One size (and one shape): no problems.
    launch.shapes = {shape(1 << 20, 2.5f, 4096, 1), shape(1 << 20, 0.5f, 4096, 4)};
    launch.other_launches = 0;
    EXPECT_TRUE(load(kAxpy, "axpy", launch).problems.empty());
    EXPECT_EQ(result_.text.find("\"problems\""), std::string::npos);
}

TEST_F(CapturedSpecTest, AGridNoScalarGivesKeepsTheThreadsLaunchedAndCountsAreNumbers) {
    // A grid-stride launch: 120 blocks whatever n is; y's allocation is larger than n.
    CapturedLaunch launch = axpy_launch(1000000, -0.1f, {120, 1, 1}, {256, 1, 1});
    launch.parameters[3] = pointer(16, 0, 4 * 1000003);
    const spec::Spec s = load(kAxpy, "axpy", launch);
    // The shortest text of the float: the kernel gets the float it got in the program.
    EXPECT_EQ(static_cast<float>(s.arguments[1].value), -0.1f);
    EXPECT_NE(result_.text.find("\"value\": -0.1}"), std::string::npos);
    EXPECT_EQ(s.arguments[3].count.text(), "1000003");
    EXPECT_EQ(s.launch.grid[0].text(), "ceil_div(30720, block_size_x)");
    EXPECT_EQ(s.launch.grid[0].eval(s.environment(s.default_config())), 120);
}

TEST_F(CapturedSpecTest, TwoDimensionalTilesAndAMatrixCountAsAProductOfScalars) {
    const std::string source = R"(#ifndef block_size_x
#define block_size_x 16
#endif
#ifndef block_size_y
#define block_size_y 8
#endif
__global__ void transpose(long long rows, unsigned cols, const double* in, double* out) {
    const long long r = blockIdx.y * block_size_y + threadIdx.y;
    const unsigned c = blockIdx.x * block_size_x + threadIdx.x;
    if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}
)";
    CapturedLaunch launch;
    launch.name = "_Z9transposexjPKdPd";
    launch.grid = {7, 13, 1};
    launch.block = {16, 8, 1};
    launch.shared_memory_bytes = 0;
    launch.parameters = {scalar<long long>(100, 0), scalar<unsigned>(100, 8),
                         pointer(16, 0, 8 * 100 * 100), pointer(24, 0, 8 * 100 * 100)};
    const spec::Spec s = load(source, "transpose", launch);
    EXPECT_EQ(s.arguments[0].type, spec::ElementType::Int64);
    EXPECT_EQ(s.arguments[0].integer_value, 100);
    EXPECT_EQ(s.arguments[1].type, spec::ElementType::UInt32);
    EXPECT_EQ(s.arguments[2].count.text(), "rows * cols");
    EXPECT_EQ(s.launch.block[1].text(), "block_size_y");
    EXPECT_EQ(s.launch.grid[0].text(), "ceil_div(rows, block_size_x)");  // 7 = ceil(100 / 16)
    EXPECT_EQ(s.launch.grid[1].text(), "ceil_div(rows, block_size_y)");  // 13 = ceil(100 / 8)
    ASSERT_EQ(s.constraints.size(), 1u);
}

// The CUDA samples' matrixMul: a template argument sizes the tiles, the host has its own
// `block_size`, and the program launches MatrixMulCUDA<32> on 32 x 32 blocks (dimsA 320 x 320,
// dimsB 640 x 320).
const char* const kMatrixMul =
    R"(template <int BLOCK_SIZE> __global__ void MatrixMulCUDA(float *C, float *A,
    float *B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int bBegin = BLOCK_SIZE * bx;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += BLOCK_SIZE, b += BLOCK_SIZE * wB) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = Csub;
}
int main() { int block_size = 32; return block_size; }
)";

CapturedLaunch matrix_mul_launch(std::uint32_t block) {
    CapturedLaunch launch;
    launch.name = "_Z13MatrixMulCUDAILi" + std::to_string(block) + "EEvPfS0_S0_ii";
    launch.demangled_name =
        "void MatrixMulCUDA<" + std::to_string(block) + ">(float*, float*, float*, int, int)";
    launch.grid = {640 / block, 320 / block, 1};
    launch.block = {block, block, 1};
    launch.parameters = {pointer(0, 0, 4 * 640 * 320), pointer(8, 0, 4 * 320 * 320),
                         pointer(16, 0, 4 * 640 * 320), scalar(320, 24), scalar(640, 28)};
    return launch;
}

TEST_F(CapturedSpecTest, ATemplateKernelTakesTheInstantiationLaunchedAndItsBlockFollowsIt) {
    const spec::Spec s = load(kMatrixMul, "MatrixMulCUDA", matrix_mul_launch(32));
    // No "TODO" left for the template argument: the spec loads, and the original is <32>.
    EXPECT_EQ(count_markers(result_.text), 0u) << result_.text;
    EXPECT_EQ(result_.text.find("the value the program launches now"), std::string::npos);
    EXPECT_EQ(s.kernel, "MatrixMulCUDA<tuned_block_size>");  // main() owns `block_size`
    ASSERT_EQ(s.parameters.size(), 1u);
    EXPECT_EQ(s.parameters[0].name, "tuned_block_size");
    EXPECT_EQ(s.parameters[0].default_value, 32);
    EXPECT_EQ(s.parameters[0].values, (std::vector<std::int64_t>{8, 16, 32, 64, 128}));
    // The block is the template argument in x and y, the grid follows it.
    EXPECT_EQ(s.launch.block[0].text(), "tuned_block_size");
    EXPECT_EQ(s.launch.block[1].text(), "tuned_block_size");
    EXPECT_EQ(s.launch.block[2].text(), "1");
    EXPECT_EQ(s.launch.grid[0].text(), "ceil_div(wB, tuned_block_size)");
    EXPECT_EQ(s.launch.grid[1].text(), "ceil_div(wA, tuned_block_size)");
    const expr::Env env = s.environment(s.default_config());
    EXPECT_EQ(s.launch.grid[0].eval(env), 20);
    EXPECT_EQ(s.launch.grid[1].eval(env), 10);
    // 64 x 64 blocks are over a block's 1024 threads.
    ASSERT_EQ(s.constraints.size(), 1u);
    EXPECT_EQ(s.constraints[0].text(), "tuned_block_size * tuned_block_size <= 1024");
    std::map<std::string, std::int64_t> wide = s.default_config();
    wide["tuned_block_size"] = 64;
    EXPECT_NE(s.constraints[0].eval(env), 0);
    EXPECT_EQ(s.constraints[0].eval(s.environment(wide)), 0);
}

TEST_F(CapturedSpecTest, TemplateTypesAndValuesThatDoNotSizeTheBlockAreTheLaunchedOnes) {
    const std::string source = R"(template <typename T, int ITEMS>
__global__ void scale(int n, T a, T* x) {
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
    for (int k = 0; k < ITEMS; ++k) if (i + k < n) x[i + k] *= a;
}
)";
    CapturedLaunch launch;
    launch.name = "_Z5scaleIdLi4EEviT_PS0_";
    launch.demangled_name = "void scale<double, 4>(int, double, double*)";
    launch.grid = {8, 1, 1};
    launch.block = {128, 1, 1};
    launch.parameters = {scalar(4096, 0), scalar(2.0, 8), pointer(16, 0, 8 * 4096)};
    const spec::Spec s = load(source, "scale", launch);
    EXPECT_EQ(count_markers(result_.text), 0u) << result_.text;
    EXPECT_EQ(s.kernel, "scale<double, items>");
    EXPECT_EQ(s.arguments[1].type, spec::ElementType::Float64);  // T is double, as launched
    EXPECT_EQ(s.arguments[1].value, 2.0);
    EXPECT_EQ(s.arguments[2].type, spec::ElementType::Float64);
    EXPECT_EQ(s.arguments[2].count.text(), "n");
    ASSERT_GE(s.parameters.size(), 1u);
    EXPECT_EQ(s.parameters[0].name, "items");
    EXPECT_EQ(s.parameters[0].default_value, 4);
    EXPECT_EQ(s.parameters[0].values, (std::vector<std::int64_t>{4}));
    EXPECT_NE(s.launch.block[0].text(), "items");  // 128 threads: not the template argument
}

TEST_F(CapturedSpecTest, WithoutBlockSizeMacrosTheGeometryIsWhatTheProgramLaunched) {
    const std::string source = R"(__global__ void fill(short value, short* out) {
    extern __shared__ short staged[];
    staged[threadIdx.x] = value;
    out[blockIdx.x * blockDim.x + threadIdx.x] = staged[threadIdx.x];
}
)";
    CapturedLaunch launch;
    launch.name = "_Z4fillsPs";
    launch.grid = {10, 2, 1};
    launch.block = {64, 1, 1};
    launch.shared_memory_bytes = 128;
    launch.parameters = {scalar<short>(-3, 0), pointer(8, 0, 2 * 64 * 20)};
    const spec::Spec s = load(source, "fill", launch);
    EXPECT_EQ(s.arguments[0].integer_value, -3);  // sign-extended from two bytes
    EXPECT_EQ(s.arguments[1].count.text(), "1280");
    const expr::Env env = s.environment(s.default_config());
    EXPECT_EQ(s.launch.block[0].eval(env), 64);
    EXPECT_EQ(s.launch.grid[0].eval(env), 10);
    EXPECT_EQ(s.launch.grid[1].eval(env), 2);
    EXPECT_EQ(s.launch.shared_memory_bytes.eval(env), 128);
    EXPECT_TRUE(s.parameters.empty());
}

// A 1-D kernel without macros: `scale<<<grid, block>>>(n, y)`.
CapturedLaunch scale_launch(int n, std::uint32_t grid, std::uint32_t block) {
    CapturedLaunch launch;
    launch.name = "_Z5scaleiPf";
    launch.grid = {grid, 1, 1};
    launch.block = {block, 1, 1};
    launch.parameters = {scalar(n, 0), pointer(8, 0, 4 * static_cast<std::uint64_t>(n))};
    return launch;
}

TEST_F(CapturedSpecTest, AKernelThatReadsBlockDimGetsALaunchOnlyBlockSize) {
    const std::string source = R"(__global__ void scale(int n, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  // any block size
    if (i < n) y[i] *= 2.0f;
}
)";
    const spec::Spec s = load(source, "scale", scale_launch(1 << 20, 4096, 256));
    ASSERT_EQ(s.parameters.size(), 1u);
    EXPECT_EQ(s.parameters[0].name, "block_size_x");
    EXPECT_EQ(s.parameters[0].default_value, 256);  // the original is what the program launched
    EXPECT_EQ(s.parameters[0].values, (std::vector<std::int64_t>{64, 128, 256, 512, 1024}));
    EXPECT_EQ(s.launch.block[0].text(), "block_size_x");
    EXPECT_EQ(s.launch.grid[0].text(), "ceil_div(n, block_size_x)");
    EXPECT_EQ(s.launch.grid[0].eval(s.environment(s.default_config())), 4096);
    EXPECT_NE(result_.text.find("block_size_x: launch only"), std::string::npos);
    EXPECT_EQ(count_markers(result_.text), 0u);
}

TEST_F(CapturedSpecTest, ALaunchOnlyBlockSizeKeepsTheThreadsLaunched) {
    const std::string source = R"(__global__ void scale(int n, float* y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] *= 2.0f;
}
)";
    // 3 blocks of 256 over a million elements (a grid-stride loop): 768 threads, which 512 and
    // 1024 do not divide.
    const spec::Spec s = load(source, "scale", scale_launch(1 << 20, 3, 256));
    ASSERT_EQ(s.parameters.size(), 1u);
    EXPECT_EQ(s.parameters[0].values, (std::vector<std::int64_t>{64, 128, 256}));
    EXPECT_EQ(s.launch.grid[0].text(), "ceil_div(768, block_size_x)");
    for (const std::int64_t block : s.parameters[0].values) {
        const expr::Env env = s.environment({{"block_size_x", block}});
        EXPECT_EQ(s.launch.grid[0].eval(env) * s.launch.block[0].eval(env), 768);
    }
}

TEST_F(CapturedSpecTest, ABlockTheKernelDoesNotReadOrANameInUseStaysFixed) {
    const std::string fixed = R"(__global__ void scale(int n, float* y) {
    const int i = blockIdx.x * 256 + threadIdx.x;  // assumes the block it is launched with
    if (i < n) y[i] *= 2.0f;  // blockDim.x in a comment does not count
}
)";
    spec::Spec s = load(fixed, "scale", scale_launch(1 << 20, 4096, 256));
    EXPECT_TRUE(s.parameters.empty());
    EXPECT_EQ(s.launch.block[0].text(), "256");
    const std::string named = R"(__global__ void scale(int n, float* y) {
    const int block_size_x = blockDim.x;  // -Dblock_size_x would break this line
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) y[i] *= 2.0f;
}
)";
    s = load(named, "scale", scale_launch(1 << 20, 4096, 256));
    EXPECT_TRUE(s.parameters.empty());
    EXPECT_EQ(s.launch.block[0].text(), "256");
}

// A 2-D kernel without macros: `shift<<<grid, block>>>(w, h, image)`.
CapturedLaunch shift_launch(int w, int h, std::array<std::uint32_t, 3> grid,
                            std::array<std::uint32_t, 3> block) {
    CapturedLaunch launch;
    launch.name = "_Z5shiftiiPf";
    launch.grid = grid;
    launch.block = block;
    launch.parameters = {scalar(w, 0), scalar(h, 4),
                         pointer(8, 0, 4 * static_cast<std::uint64_t>(w) * h)};
    return launch;
}

TEST_F(CapturedSpecTest, TwoAxesThatReadBlockDimAreBothTunedWithinABlocksThreads) {
    const std::string source = R"(__global__ void shift(int w, int h, float* image) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) image[y * w + x] += 1.0f;
}
)";
    const spec::Spec s = load(source, "shift", shift_launch(1024, 512, {64, 32, 1}, {16, 16, 1}));
    ASSERT_EQ(s.parameters.size(), 2u);
    EXPECT_EQ(s.parameters[0].name, "block_size_x");
    EXPECT_EQ(s.parameters[1].name, "block_size_y");
    EXPECT_EQ(s.parameters[1].values, (std::vector<std::int64_t>{4, 8, 16, 32, 64}));
    EXPECT_EQ(s.launch.grid[0].text(), "ceil_div(w, block_size_x)");
    EXPECT_EQ(s.launch.grid[1].text(), "ceil_div(h, block_size_y)");
    ASSERT_EQ(s.constraints.size(), 1u);
    EXPECT_EQ(s.constraints[0].text(), "block_size_x * block_size_y <= 1024");
    const expr::Env env = s.environment(s.default_config());
    EXPECT_EQ(s.launch.grid[0].eval(env), 64);
    EXPECT_EQ(s.launch.grid[1].eval(env), 32);
    EXPECT_EQ(count_markers(result_.text), 0u);
}

TEST_F(CapturedSpecTest, OnlyTheAxesTheKernelReadsBlockDimOfAreTuned) {
    const std::string source = R"(__global__ void shift(int w, int h, float* image) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;  // one row a block in y
    if (x < w) image[blockIdx.y * w + x] += 1.0f;
}
)";
    const spec::Spec s = load(source, "shift", shift_launch(1024, 512, {4, 512, 1}, {256, 1, 1}));
    ASSERT_EQ(s.parameters.size(), 1u);
    EXPECT_EQ(s.parameters[0].name, "block_size_x");
    EXPECT_EQ(s.launch.block[1].text(), "1");
    EXPECT_EQ(s.launch.grid[1].text(), "512");
    EXPECT_TRUE(s.constraints.empty());
}

TEST_F(CapturedSpecTest, ABlockThatIsNotTheMacrosDefaultIsFixedAndSaysWhy) {
    const spec::Spec s = load(kAxpy, "axpy", axpy_launch(4096, 1.0f, {32, 1, 1}, {128, 1, 1}));
    EXPECT_EQ(s.launch.block[0].text(), "128");
    EXPECT_EQ(s.launch.grid[0].text(), "32");
    EXPECT_NE(result_.text.find("block_size_x's default is 256 but the program launched 128"),
              std::string::npos);
}

TEST_F(CapturedSpecTest, SnapshotsBecomeFileFillsOfEveryPointer) {
    CapturedLaunch launch = axpy_launch(1000, 2.0f, {4, 1, 1}, {256, 1, 1});
    launch.parameters[2].snapshot = "/tmp/records/snapshot-1-0-2.bin";
    launch.parameters[3].snapshot = "/tmp/records/snapshot-1-0-3.bin";
    // The loader checks each file against its count: write what the command would.
    fs::create_directories(dir_ / "axpy.data");
    std::ofstream(dir_ / "axpy.data/x.bin", std::ios::binary) << std::string(4000, '\0');
    std::ofstream(dir_ / "axpy.data/y.bin", std::ios::binary) << std::string(4000, '\0');
    const spec::Spec s = load(kAxpy, "axpy", launch, "axpy.data");
    EXPECT_EQ(s.arguments[2].fill.kind, spec::Fill::Kind::File);
    EXPECT_EQ(s.arguments[2].fill.file.as_written, "axpy.data/x.bin");
    EXPECT_EQ(s.arguments[3].fill.kind, spec::Fill::Kind::File);
    ASSERT_EQ(result_.snapshots.size(), 2u);
    EXPECT_EQ(result_.snapshots[0].argument, "x");
    EXPECT_EQ(result_.snapshots[0].from, "/tmp/records/snapshot-1-0-2.bin");
    EXPECT_EQ(result_.snapshots[0].to, "axpy.data/x.bin");
    EXPECT_EQ(result_.snapshots[0].type, spec::ElementType::Float32);
    EXPECT_EQ(result_.snapshots[0].count, 1000u);
}

TEST_F(CapturedSpecTest, WhatTheLaunchCannotAnswerKeepsItsMarker) {
    CapturedLaunch launch = axpy_launch(1000, 2.0f, {4, 1, 1}, {256, 1, 1});
    launch.parameters[2].allocation.reset();  // a host pointer, say
    const CapturedSpec spec = captured_spec(kAxpy, "kernel.cu", "axpy", launch, "./app", "");
    EXPECT_NE(spec.text.find("\"count\": \"TODO: element count of x\""), std::string::npos);
    EXPECT_EQ(spec.notes, std::vector<std::string>{"x: the pointer is not into device memory"});
    EXPECT_EQ(count_markers(spec.text), 1u);

    launch.parameters.clear();
    launch.error = "cuFuncGetParamInfo failed: invalid value (1)";
    const CapturedSpec unknown = captured_spec(kAxpy, "kernel.cu", "axpy", launch, "./app", "");
    EXPECT_NE(unknown.text.find("\"value\": \"TODO: value of n while tuning\""), std::string::npos);
    ASSERT_EQ(unknown.notes.size(), 1u);
    EXPECT_NE(unknown.notes[0].find("cuFuncGetParamInfo failed"), std::string::npos);
}

TEST_F(CapturedSpecTest, AFailedSnapshotLeavesTheArgumentsAndSaysWhy) {
    CapturedLaunch launch = axpy_launch(1000, 2.0f, {4, 1, 1}, {256, 1, 1});
    launch.snapshot_error = "cuCtxSynchronize failed: an illegal memory access (700)";
    const spec::Spec s = load(kAxpy, "axpy", launch, "axpy.data");
    EXPECT_EQ(s.arguments[2].count.text(), "n");
    EXPECT_EQ(s.arguments[2].fill.kind, spec::Fill::Kind::Uniform);
    EXPECT_EQ(result_.notes,
              std::vector<std::string>{"no snapshot of its data (cuCtxSynchronize failed: an "
                                       "illegal memory access (700)): those inputs are filled at "
                                       "random"});
}

TEST_F(CapturedSpecTest, ALaunchOfAnotherKernelOrAKernelNotInTheSourceIsAnError) {
    CapturedLaunch launch = axpy_launch(1000, 2.0f, {4, 1, 1}, {256, 1, 1});
    launch.parameters.pop_back();
    EXPECT_THROW(captured_spec(kAxpy, "kernel.cu", "axpy", launch, "./app", ""), CaptureMismatch);
    EXPECT_THROW(captured_spec(kAxpy, "kernel.cu", "absent", launch, "./app", ""),
                 source::RewriteError);
}

// Found by fuzzing (issue 30): capture files of launches no program could make, read back from
// bytes (the fuzz target activity). A block of no threads divided by zero; a count near 2^63 and
// grids and blocks near 2^32 overflowed signed arithmetic (UndefinedBehaviorSanitizer).
TEST_F(CapturedSpecTest, ALaunchOfNoThreadsOrOfExtremeSizesStillGivesASpec) {
    const std::string source = R"(__global__ void scale(long long n, float* y) {
    const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] *= 2.0f;
}
)";
    const auto launch = [](std::int64_t n, std::uint32_t grid, std::uint32_t block) {
        CapturedLaunch made;
        made.name = "_Z5scalexPf";
        made.demangled_name = "scale(long long, float*)";
        made.grid = {grid, 1, 1};
        made.block = {block, 1, 1};
        made.parameters = {scalar(n, 0), pointer(8, 0, 4u << 20)};
        return made;
    };
    // {"grid": [8192, 1, 1], "block": [0, 1, 1]}: the block stays what was launched.
    CapturedSpec spec =
        captured_spec(source, "kernel.cu", "scale", launch(1 << 20, 8192, 0), "./app", "");
    EXPECT_NE(spec.text.find("\"block\": [\"0\", \"1\", \"1\"]"), std::string::npos) << spec.text;
    // "bytes": "ffffffffffffff7f" for n: no scalar gives the grid, which keeps the threads.
    spec = captured_spec(source, "kernel.cu", "scale",
                         launch(std::numeric_limits<std::int64_t>::max(), 8192, 128), "./app", "");
    EXPECT_NE(spec.text.find("ceil_div(1048576, block_size_x)"), std::string::npos) << spec.text;
    // {"grid": [4294967295, 1, 1], "block": [4294967295, 1, 1]}: the threads as launched.
    spec = captured_spec(source, "kernel.cu", "scale", launch(1 << 20, ~0u, ~0u), "./app", "");
    EXPECT_NE(spec.text.find("4294967295"), std::string::npos) << spec.text;
}

TEST_F(CapturedSpecTest, AScalarTheSpecCannotHoldIsLeftForTheUser) {
    const std::string source = R"(__global__ void big(unsigned long long n, float* out) {
    if (threadIdx.x < n) out[threadIdx.x] = 0;
}
)";
    CapturedLaunch launch;
    launch.name = "_Z3bigyPf";
    launch.parameters = {scalar<unsigned long long>(~0ull, 0), pointer(8, 0, 64)};
    const CapturedSpec spec = captured_spec(source, "kernel.cu", "big", launch, "./app", "");
    EXPECT_NE(spec.text.find("\"value\": \"TODO: value of n while tuning\""), std::string::npos);
    ASSERT_EQ(spec.notes.size(), 1u);
    EXPECT_EQ(spec.notes[0],
              "n: the launch passed 18446744073709551615, above 2^63 - 1, which a spec cannot "
              "hold");
}

}  // namespace
}  // namespace optiml::init
