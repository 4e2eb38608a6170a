// Calls the drop-in form of tile_fill<tile> (block [tile, tile]) with each tile's block and with a
// block of no instantiation (20 x 20, twice). argv[1]: the tiles whose instantiation the program
// holds, e.g. "8,16,32"; each must fill the matrix with its tile, every other block must be
// refused (cudaErrorInvalidConfiguration, nothing written). Exit 0: all held; 77: no GPU.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <optiml/tile_fill.h>

namespace {

constexpr int kWidth = 256;

// Launches with a `tile` x `tile` block and says whether it went as expected.
bool check(int* device_out, int tile, bool must_run) {
    cudaMemset(device_out, 0, kWidth * kWidth * sizeof(int));
    const dim3 grid(kWidth / tile, kWidth / tile);
    const dim3 block(tile, tile);
    cudaError_t status = optiml::tile_fill_launch(grid, block, 0, nullptr, device_out, kWidth);
    const cudaError_t launched = status;
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    std::vector<int> out(kWidth * kWidth);
    cudaMemcpy(out.data(), device_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost);
    int filled = 0;
    int wrong = 0;
    for (const int value : out) {
        filled += value == tile;
        wrong += value != tile && value != 0;
    }
    std::printf("block %dx%d: %s, %d of %d elements filled, %d wrong\n", tile, tile,
                cudaGetErrorName(launched), filled, kWidth * kWidth, wrong);
    if (must_run) return status == cudaSuccess && filled == kWidth * kWidth;
    return launched == cudaErrorInvalidConfiguration && filled == 0 && wrong == 0;
}

}  // namespace

int main(int argc, char** argv) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("no GPU\n");
        return 77;
    }
    const std::string held = argc > 1 ? std::string(",") + argv[1] + "," : ",";
    int* device_out = nullptr;
    if (cudaMalloc(&device_out, kWidth * kWidth * sizeof(int)) != cudaSuccess) return 1;
    bool ok = true;
    for (const int tile : {8, 16, 32})
        ok = check(device_out, tile,
                   held.find("," + std::to_string(tile) + ",") != std::string::npos) &&
             ok;
    ok = check(device_out, 20, false) && ok;
    ok = check(device_out, 20, false) && ok;  // said once only
    cudaFree(device_out);
    return ok ? 0 : 1;
}
