// A program launching the size_tag launcher at several sizes, through both forms: prints the tag
// every element of each launch got ("mixed" if they differ). Exit 77 without a GPU.
#include <cstdio>
#include <vector>

#include <optiml/size_tag.h>

int tag_at(int n, bool dropin) {
    int* out = nullptr;
    if (cudaMalloc(&out, sizeof(int) * static_cast<std::size_t>(n)) != cudaSuccess) return -2;
    cudaMemset(out, 0xff, sizeof(int) * static_cast<std::size_t>(n));
    const cudaError_t status =
        dropin ? optiml::size_tag_launch(dim3((n + 127) / 128), dim3(128), 0, nullptr, n, out)
               : optiml::size_tag(nullptr, n, out);
    std::vector<int> host(static_cast<std::size_t>(n));
    cudaMemcpy(host.data(), out, sizeof(int) * host.size(), cudaMemcpyDeviceToHost);
    cudaFree(out);
    if (status != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return -3;
    for (const int value : host)
        if (value != host.front()) return -1;
    return host.front();
}

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("no GPU\n");
        return 77;
    }
    for (const int n : {1000, 20000, 1 << 20, 1 << 23, 1 << 26})
        std::printf("n=%d launcher %d drop-in %d\n", n, tag_at(n, false), tag_at(n, true));
    return 0;
}
