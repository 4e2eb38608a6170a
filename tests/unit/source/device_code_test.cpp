// What of a file can change its device code: host-only bodies go, everything a device compile
// could read stays, byte for byte.
#include "driver/source/device_code.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace optiml::source {
namespace {

std::string device_text(const std::string& source) {
    return source::device_relevant_text(source, source::seen_macros({source}));
}

const std::string kMixed = R"(#include <cstdio>
#define N 64
__device__ float twice(float a) { return 2.0f * a; }
__global__ void scale(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }
static void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) printf("%s failed\n", what);
}
int main(int argc, char** argv) {
    float* x = nullptr;
    check(cudaMalloc(&x, N * sizeof(float)), "malloc");
    scale<<<1, N>>>(x);
    printf("done\n");
    return 0;
}
)";

TEST(DeviceCode, HostOnlyBodiesAreLeftOutAndDeviceCodeKeptByteForByte) {
    const std::string text = device_text(kMixed);
    EXPECT_NE(text.find("__device__ float twice(float a) { return 2.0f * a; }"), std::string::npos);
    EXPECT_NE(text.find("x[threadIdx.x] = twice(x[threadIdx.x]); }"), std::string::npos);
    EXPECT_NE(text.find("int main(int argc, char** argv) {}"), std::string::npos) << text;
    EXPECT_EQ(text.find("printf"), std::string::npos) << text;
    EXPECT_EQ(text.find("cudaMalloc"), std::string::npos);
}

TEST(DeviceCode, AHostEditKeepsTheTextADeviceEditChangesIt) {
    std::string host_edit = kMixed;
    host_edit.replace(host_edit.find("done"), 4, "finished, all good");
    EXPECT_EQ(device_text(host_edit), device_text(kMixed));
    std::string device_edit = kMixed;
    device_edit.replace(device_edit.find("2.0f * a"), 8, "a");
    EXPECT_NE(device_text(device_edit), device_text(kMixed));
}

TEST(DeviceCode, AFileWithoutHostFunctionsComesBackUnchanged) {
    const std::string kernel = R"(#ifndef block_size_x
#define block_size_x 256
#endif
template <int Size> struct Vec;
template <> struct Vec<1> { using type = float; };
struct Pair { float a; float b; __device__ float sum() const { return a + b; } };
constexpr int kTile = 16;
__global__ void __launch_bounds__(block_size_x) k(float* x) { x[0] = kTile; }
)";
    EXPECT_EQ(device_text(kernel), kernel);
}

TEST(DeviceCode, WhatDeviceCodeMayCallOrMayBeIsKept) {
    const std::string source = R"(#define DEVICE_FN __host__ __device__
#define QUALIFIED DEVICE_FN inline
QUALIFIED float through_macro(float a) { return a + 1; }
constexpr int table_size(int n) { return n * 2; }
template <typename T> __host__ __device__ T both(T a) { return a; }
UNSEEN_MACRO int maybe_device(int a) { return a - 1; }
_CCCL_HOST_DEVICE int reserved(int a) { return a * 3; }
namespace outer { void host_in_namespace() { puts("host"); } }
extern "C" { void c_host() { puts("c"); } }
void launcher() { auto f = [] __device__ (int i) { return i * 7; }; (void)f; }
)";
    const std::string text = device_text(source);
    for (const char* kept : {"return a + 1;", "return n * 2;", "return a;", "return a - 1;",
                             "return a * 3;", "return i * 7;"})
        EXPECT_NE(text.find(kept), std::string::npos) << kept << " left out of\n" << text;
    EXPECT_EQ(text.find("puts(\"host\")"), std::string::npos) << text;
    EXPECT_EQ(text.find("puts(\"c\")"), std::string::npos) << text;
}

TEST(DeviceCode, DirectivesInALeftOutBodyStay) {
    const std::string source = R"(void setup() {
#define LATE_SCALE 3
    puts("setup");
}
__global__ void k(float* x) { x[0] = LATE_SCALE; }
)";
    const std::string text = device_text(source);
    EXPECT_NE(text.find("#define LATE_SCALE 3"), std::string::npos) << text;
    EXPECT_EQ(text.find("puts"), std::string::npos) << text;
}

TEST(DeviceCode, InitializersAndClassBodiesAreNotFunctions) {
    const std::string source = R"(auto host_lambda = [](int a) { return a + 40; };
struct Host { int run() { return 41; } };
int table[] = {1, 2, 42};
)";
    EXPECT_EQ(device_text(source), source);
}

TEST(DeviceCode, NamedIdentifiersIncludeThoseOfDirectives) {
    const auto names = source::named_identifiers(
        "#ifdef USE_FAST\n#if LEVEL > 2\n#endif\n#endif\n"
        "__global__ void k() { assert(x); } // COMMENTED\n");
    for (const char* name : {"USE_FAST", "LEVEL", "assert", "k", "x"})
        EXPECT_TRUE(names.count(name)) << name;
    EXPECT_FALSE(names.count("COMMENTED"));
    EXPECT_FALSE(
        source::named_identifiers("#include <assert.h>\n").count("assert"));  // a file name
}

source::DeviceOnlyText device_only(const std::string& source) {
    return source::device_only_text(source, source::seen_macros({source}));
}

std::size_t line_of(const std::string& text, const std::string& what) {
    const std::size_t at = text.find(what);
    return at == std::string::npos ? 0 : 1 + std::count(text.begin(), text.begin() + at, '\n');
}

TEST(DeviceOnly, HostFunctionsAndHostOnlyHeadersGoAndEveryLineKeepsItsNumber) {
    const std::string source = "#include <vector>\n#include  < iostream >\n" + kMixed +
                               "void fill(std::vector<float>& v) {\n    v.assign(4, 1.0f);\n}\n"
                               "__global__ void last(float* x) { x[0] = 1.0f; }\n";
    const source::DeviceOnlyText only = device_only(source);
    EXPECT_EQ(only.headers, (std::vector<std::string>{"vector", "iostream"}));
    EXPECT_EQ(only.host_functions, 3u);  // check, main, fill: declarations and bodies
    const std::string& text = only.text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
              std::count(source.begin(), source.end(), '\n'));
    for (const char* kept : {"#include <cstdio>", "__device__ float twice(float a)",
                             "__global__ void scale(float* x)", "__global__ void last(float* x)"})
        EXPECT_EQ(line_of(text, kept), line_of(source, kept)) << kept << "\n" << text;
    for (const char* gone : {"vector", "iostream", "main", "check", "fill", "printf"})
        EXPECT_EQ(text.find(gone), std::string::npos) << gone << "\n" << text;
}

TEST(DeviceOnly, DirectivesOfALeftOutFunctionStayOnTheirLines) {
    const std::string source = "int main() {\n#ifdef DEBUG\n  return 1;\n#endif\n  return 0;\n}\n";
    const std::string text = device_only(source).text;
    EXPECT_EQ(text, "\n#ifdef DEBUG\n\n#endif\n\n\n");
}

TEST(DeviceOnly, DeviceCodeAloneComesBackUnchanged) {
    const std::string kernel =
        "#include <cstdint>\n#include <cuda_fp16.h>\n"
        "__global__ void k(std::uint8_t* x) { x[0] = 1; }\n";
    const source::DeviceOnlyText only = device_only(kernel);
    EXPECT_EQ(only.text, kernel);
    EXPECT_EQ(only.host_functions, 0u);
    EXPECT_TRUE(only.headers.empty());
}

TEST(DeviceOnly, ForNvrtcTheHeadersOfItsBuiltinsGoTooAndNoOther) {
    const std::string text =
        "#include <cstdio>\n#include <assert.h>\n#include <cstdint>\n#include \"cstdio\"\n"
        "__global__ void k(int* x) { assert(x); printf(\"%d\", x[0]); }\n";
    EXPECT_EQ(source::nvrtc_device_text(text),
              "\n\n#include <cstdint>\n#include \"cstdio\"\n"
              "__global__ void k(int* x) { assert(x); printf(\"%d\", x[0]); }\n");
}

TEST(DeviceCode, QualifierMacrosAreFoundThroughOtherMacros) {
    const source::SeenMacros macros = source::seen_macros(
        {"#define HD __host__ __device__\n#define INLINE_HD HD inline\n#define N 4\n"});
    EXPECT_EQ(macros.qualifiers, (std::set<std::string>{"HD", "INLINE_HD"}));
    EXPECT_EQ(macros.others, (std::set<std::string>{"N"}));
}

}  // namespace
}  // namespace optiml::source
