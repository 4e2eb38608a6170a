// A project's host function in a shared object the driver built (a comparison function, an input
// generator), loaded with dlopen: the one place that knows how a symbol becomes a function.
#pragma once

#include <cstring>
#include <string>

namespace optiml::measure {

class SharedLibrary {
  public:
    // Loads `library` and finds `symbol` in it. Throws std::runtime_error naming `what` (the
    // function and its source, for messages) and, when the symbol is missing, `declaration` (how
    // the source must declare it).
    SharedLibrary(const std::string& library, const std::string& symbol, const std::string& what,
                  const std::string& declaration);
    ~SharedLibrary();
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    // The symbol as a function pointer of type `Function`.
    template <typename Function>
    Function function() const {
        // The only way from dlsym's object pointer to a function pointer (POSIX guarantees it).
        Function typed = nullptr;
        static_assert(sizeof(typed) == sizeof(address_));
        std::memcpy(&typed, &address_, sizeof(typed));
        return typed;
    }

  private:
    void* handle_ = nullptr;
    void* address_ = nullptr;
};

}  // namespace optiml::measure
