#include "driver/measure/detail/shared_library.h"

#include <dlfcn.h>

#include <stdexcept>

namespace optiml::measure {

SharedLibrary::SharedLibrary(const std::string& library, const std::string& symbol,
                             const std::string& what, const std::string& declaration) {
    // RTLD_LOCAL: the project's symbols never replace the worker's own.
    handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = dlerror();
        throw std::runtime_error("cannot load " + what + " (" + library +
                                 "): " + (why ? why : "unknown error"));
    }
    address_ = dlsym(handle_, symbol.c_str());
    if (!address_) {
        dlclose(handle_);
        throw std::runtime_error(what + " does not define " + symbol + "; expected " + declaration);
    }
}

SharedLibrary::~SharedLibrary() {
    if (handle_) dlclose(handle_);
}

}  // namespace optiml::measure
