#pragma once

// CUPTI's parameter structs and result checks, shared by the PM sampler's files.
#include <cupti.h>

#include <cstddef>
#include <string>
#include <vector>

namespace tokenscope::capture::cupti {

// CUPTI's parameter structs: zeroed, with the size of the version compiled against.
template <typename T>
T params(std::size_t struct_size) {
    T p{};
    p.structSize = struct_size;
    return p;
}

// Returns PmSampler::explain() of a failed call from the enclosing function.
#define TS_PM_CALL(call, params)                                    \
    do {                                                            \
        if (CUptiResult r_ = call(&(params)); r_ != CUPTI_SUCCESS)  \
            return PmSampler::explain(static_cast<int>(r_), #call); \
    } while (0)

inline std::vector<const char*> c_names(const std::vector<std::string>& names) {
    std::vector<const char*> out;
    for (const std::string& n : names) out.push_back(n.c_str());
    return out;
}

}  // namespace tokenscope::capture::cupti
