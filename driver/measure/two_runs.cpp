#include "driver/measure/detail/two_runs.h"

#include <cstring>
#include <vector>

namespace optiml::measure {
namespace {

bool all_bytes(const unsigned char* bytes, std::size_t size, unsigned char value) {
    for (std::size_t i = 0; i < size; ++i)
        if (bytes[i] != value) return false;
    return true;
}

}  // namespace

TwoRunVerdict classify_two_runs(spec::ElementType type, const void* run_a, const void* run_b,
                                std::size_t count, bool deterministic, const Tolerance& tolerance) {
    const std::size_t size = spec::size_of(type);
    const auto* a = static_cast<const unsigned char*>(run_a);
    const auto* b = static_cast<const unsigned char*>(run_b);
    if (std::memcmp(a, b, count * size) == 0) return {};  // the common case, at memory speed
    TwoRunVerdict unwritten{TwoRunVerdict::Kind::Unwritten};
    TwoRunVerdict racy{TwoRunVerdict::Kind::Nondeterministic};
    for (std::size_t i = 0; i < count; ++i) {
        const unsigned char* ea = a + i * size;
        const unsigned char* eb = b + i * size;
        if (std::memcmp(ea, eb, size) == 0) continue;
        if (all_bytes(ea, size, kPoisonA) && all_bytes(eb, size, kPoisonB)) {
            if (unwritten.count++ == 0) unwritten.first_index = i;
            continue;
        }
        if (!deterministic && spec::is_floating(type) &&
            compare_buffers(type, ea, eb, 1, tolerance).mismatches == 0)
            continue;
        if (racy.count++ == 0) racy.first_index = i;
    }
    if (unwritten.count > 0) return unwritten;
    if (racy.count > 0) return racy;
    return {};
}

std::string describe(const std::string& name, const TwoRunVerdict& verdict, std::size_t count) {
    const std::string where = name + "[" + std::to_string(verdict.first_index) + "]";
    const std::string how_many = std::to_string(verdict.count) + " of " + std::to_string(count);
    switch (verdict.kind) {
        case TwoRunVerdict::Kind::Unwritten:
            return name + ": " + how_many + " elements were never written (first: " + where +
                   "; it kept the poison of both runs)";
        case TwoRunVerdict::Kind::Nondeterministic:
            return name + ": two runs on the same inputs differ in " + how_many +
                   " elements (first: " + where +
                   "): a race, or set \"check\": {\"deterministic\": false} if the order of "
                   "floating-point operations legitimately varies";
        case TwoRunVerdict::Kind::Same:
            break;
    }
    return {};
}

}  // namespace optiml::measure
