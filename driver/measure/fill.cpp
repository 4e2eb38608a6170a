#include "driver/measure/detail/fill.h"

#include "driver/measure/detail/element_dispatch.h"
#include "driver/spec/data_file.h"

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace optiml::measure {
namespace {

template <typename T>
std::string fill_as(const spec::Fill& fill, std::size_t count, std::uint64_t seed) {
    std::string bytes(count * sizeof(T), '\0');
    T* out = reinterpret_cast<T*>(bytes.data());
    std::mt19937_64 engine(seed);
    using Kind = spec::Fill::Kind;
    auto store = [&](std::size_t i, double v) {
        if constexpr (std::is_floating_point_v<T>) {
            out[i] = static_cast<T>(v);
        } else {
            out[i] = static_cast<T>(std::llround(v));
        }
    };
    switch (fill.kind) {
        case Kind::Uniform: {
            std::uniform_real_distribution<double> dist(fill.a, fill.b);
            for (std::size_t i = 0; i < count; ++i) store(i, dist(engine));
            break;
        }
        case Kind::Normal: {
            std::normal_distribution<double> dist(fill.a, fill.b);
            for (std::size_t i = 0; i < count; ++i) store(i, dist(engine));
            break;
        }
        case Kind::Constant:
            for (std::size_t i = 0; i < count; ++i) store(i, fill.a);
            break;
        case Kind::Iota:
            for (std::size_t i = 0; i < count; ++i)
                store(i, fill.a + fill.b * static_cast<double>(i));
            break;
        case Kind::File:       // read by make_filled_buffer
        case Kind::Generator:  // the project's code fills it (trial_inputs.h)
            break;
    }
    return bytes;
}

template <typename T>
std::string bytes_of(double value) {
    T typed =
        std::is_floating_point_v<T> ? static_cast<T>(value) : static_cast<T>(std::llround(value));
    std::string bytes(sizeof(T), '\0');
    std::memcpy(bytes.data(), &typed, sizeof(T));
    return bytes;
}

}  // namespace

std::string make_filled_buffer(spec::ElementType type, const spec::Fill& fill, std::size_t count,
                               std::uint64_t seed_offset) {
    if (fill.kind == spec::Fill::Kind::File) {
        // Fixed data: every trial and every seed offset gets the same bytes.
        try {
            return spec::read_data_file(fill.file.path, fill.file.as_written, type, "the buffer",
                                        count);
        } catch (const spec::DataFileError& error) {
            throw std::runtime_error(fill.file.path.string() + ": " + error.what() + "; expected " +
                                     error.fix());
        }
    }
    return visit_element_type(type, [&](auto tag) {
        return fill_as<decltype(tag)>(fill, count, fill.seed + seed_offset);
    });
}

std::string scalar_bytes(spec::ElementType type, double value) {
    return visit_element_type(type, [&](auto tag) { return bytes_of<decltype(tag)>(value); });
}

}  // namespace optiml::measure
