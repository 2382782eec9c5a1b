#include <iostream>
#include <string>
#include <vector>

#include "gpu_decode.h"

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return tokenscope::kernels::cuda::run_gpu_decode(args, std::cout, std::cerr);
}
