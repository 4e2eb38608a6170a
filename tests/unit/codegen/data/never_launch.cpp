// A program that links a generated launcher but never calls it (as when a <<<>>> launch was left
// in place): with OPTIML_VERBOSE=1 the runtime says so at exit.
#include <cstdio>

int main() {
    std::printf("not launching\n");
    return 0;
}
