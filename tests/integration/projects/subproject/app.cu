#include <optiml/saxpy.h>

int main() {
    return optiml::saxpy_dispatch(0).variant < 0 ? 0 : 1;
}
