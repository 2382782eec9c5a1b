#pragma once

// Lets plain C++ headers hold small functions both the host code and the CUDA
// kernels run, so the two sides cannot drift apart. No CUDA header is needed.
#if defined(__CUDACC__)
#define TOKENSCOPE_HD __host__ __device__
#else
#define TOKENSCOPE_HD
#endif
