#include <iostream>
#include <string>
#include <vector>

#include "gpu_overhead.h"

int main(int argc, char** argv) {
    return tokenscope::capture::cupti::gpu_overhead_main(
        std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
