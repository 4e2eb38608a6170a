// The input generator of point_in_polygon.optiml.json: one call fills the constant tables
// vertex_x, vertex_y and slopes with a random star-shaped polygon (vertices at increasing angles,
// radii in [0.3, 1)) and the slope of each of its edges, a new polygon for every seed.
#include <optiml/generate.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace {

float* table(const optiml_generate_args* args, const char* name, size_t count) {
    for (size_t i = 0; i < args->buffer_count; ++i)
        if (std::strcmp(args->buffers[i].name, name) == 0 &&
            args->buffers[i].type == OPTIML_FLOAT32 && args->buffers[i].count == count)
            return static_cast<float*>(args->buffers[i].data);
    return nullptr;
}

}  // namespace

int optiml_generate(const optiml_generate_args* args) {
    long long vertices = 0;
    for (size_t i = 0; i < args->scalar_count; ++i)
        if (std::strcmp(args->scalars[i].name, "vertices") == 0)
            vertices = args->scalars[i].integer_value;
    const size_t count = static_cast<size_t>(vertices);
    float* x = table(args, "vertex_x", count);
    float* y = table(args, "vertex_y", count);
    float* slopes = table(args, "slopes", count);
    if (vertices < 3 || !x || !y || !slopes) {
        std::snprintf(args->message, args->message_size,
                      "expected vertices >= 3 and float32 tables vertex_x, vertex_y, slopes of "
                      "that many elements");
        return 1;
    }
    std::mt19937_64 engine(args->seed);
    std::uniform_real_distribution<double> radius(0.3, 1.0);
    std::uniform_real_distribution<double> jitter(0.0, 0.9);
    const double step = 2.0 * 3.14159265358979323846 / static_cast<double>(vertices);
    for (size_t k = 0; k < count; ++k) {
        const double angle = (static_cast<double>(k) + jitter(engine)) * step;
        const double r = radius(engine);
        x[k] = static_cast<float>(r * std::cos(angle));
        y[k] = static_cast<float>(r * std::sin(angle));
    }
    // The kernel's own expression, in single precision: the same bits as its division.
    for (size_t k = 0; k < count; ++k) {
        const size_t j = k == 0 ? count - 1 : k - 1;
        const float dy = y[j] - y[k];
        slopes[k] = dy == 0.0f ? 0.0f : (x[j] - x[k]) / dy;
    }
    return 0;
}
