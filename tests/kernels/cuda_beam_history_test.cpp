#include <gtest/gtest.h>

#if defined(TOKENSCOPE_HAVE_CUDA_KERNELS)
#include "kernels/cuda/beam_history.h"

namespace tokenscope::kernels::cuda {
namespace {

TEST(CudaBeamHistory, BeamsFollowTheirParents) {
    BeamHistory h(2, 2);  // sequences 0,1 = request 0; 2,3 = request 1
    const std::vector<std::int32_t> ids1{5, 7, 8, 9}, parents1{0, 0, 2, 2};
    h.advance(ids1, parents1);
    const std::vector<std::int32_t> ids2{1, 2, 3, 4}, parents2{1, 0, 2, 3};
    h.advance(ids2, parents2);
    EXPECT_EQ(h.tokens(0, 0), (std::vector<std::int32_t>{7, 1}));
    EXPECT_EQ(h.tokens(0, 1), (std::vector<std::int32_t>{5, 2}));
    EXPECT_EQ(h.tokens(1, 0), (std::vector<std::int32_t>{8, 3}));
    EXPECT_EQ(h.tokens(1, 1), (std::vector<std::int32_t>{9, 4}));
}

TEST(CudaBeamHistory, RejectsAParentOutsideItsRequest) {
    BeamHistory h(2, 2);
    const std::vector<std::int32_t> ids{1, 2, 3, 4}, parents{0, 2, 2, 3};
    EXPECT_THROW(h.advance(ids, parents), std::invalid_argument);
    EXPECT_THROW(h.tokens(2, 0), std::out_of_range);
}

}  // namespace
}  // namespace tokenscope::kernels::cuda
#else
TEST(CudaBeamHistory, NotBuilt) {
    GTEST_SKIP() << "built without the CUDA kernels";
}
#endif
