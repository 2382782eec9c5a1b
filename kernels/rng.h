#pragma once

#include <cmath>
#include <cstdint>

namespace tokenscope::kernels {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and, unlike the std
// distributions, gives the same sequence for a seed under every standard library.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) from the top 53 bits: every value is an exact double.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Exponential with the given mean by inversion; 1 - u is in (0, 1], so log is finite.
    double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }
    bool bernoulli(double p) { return uniform() < p; }

  private:
    std::uint64_t state_;
};

}  // namespace tokenscope::kernels
