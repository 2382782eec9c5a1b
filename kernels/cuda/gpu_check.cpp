#include "gpu_check.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <ostream>

#include "attention_check.h"
#include "cuda_decode_runner.h"
#include "kernels/cpu/cpu_generate.h"
#include "kernels/decode_config.h"
#include "kernels/model_shape.h"
#include "matmul_check.h"
#include "matmul_engine.h"

namespace tokenscope::kernels::cuda {
namespace {

struct CheckOptions {
    ModelShape shape;
    DecodeConfig config;
    bool cuda_graphs = false;  // decode iterations as CUDA graphs (CudaDecodeRunner)
};

// Fills `o` from the arguments; returns the problem, empty when fine.
std::string parse(std::span<const std::string> args, CheckOptions& o) {
    o.shape = *find_model_preset("tiny");
    o.config.batch = 2;
    o.config.new_tokens = 64;
    o.config.prompt_len = 32;
    o.config.strategy = Strategy::Greedy;
    std::optional<DType> dtype;  // applied last: --model resets the shape
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--cuda-graphs") {
            o.cuda_graphs = true;
            continue;
        }
        if (i + 1 >= args.size()) return "option " + a + " needs a value (or is unknown)";
        const std::string& v = args[++i];
        try {
            if (a == "--model") {
                auto p = find_model_preset(v);
                if (!p) return "unknown model '" + v + "'";
                o.shape = *p;
            } else if (a == "--dtype") {
                dtype = dtype_from_string(v);
                if (!dtype) return "unknown dtype '" + v + "'";
            } else if (a == "--batch") {
                o.config.batch = std::stoll(v);
            } else if (a == "--tokens") {
                o.config.new_tokens = std::stoll(v);
            } else if (a == "--prompt") {
                o.config.prompt_len = std::stoll(v);
            } else {
                return "unknown option " + a;
            }
        } catch (const std::exception&) {
            return "option " + a + ": '" + v + "' is not a number";
        }
    }
    if (dtype) o.shape.dtype = *dtype;
    if (auto e = o.shape.validate(); !e.empty()) return e;
    return o.config.validate(o.shape);
}

// Every matmul path on shapes the decode of a small model never reaches (split k
// needs k >= 512), checked against a double-precision product (matmul_check.h).
bool check_matmuls(DType dtype, std::ostream& out) {
    bool ok = true;
    MatmulEngine engine;
    out << "matmul engine: " << engine.description() << "\n";
    for (const MatmulCase& c : default_matmul_cases())
        for (MatmulEngine* e : {static_cast<MatmulEngine*>(nullptr), &engine}) {
            if (e != nullptr && !e->uses_library()) continue;
            const MatmulCheck r = check_matmul(dtype, c, e);
            out << "matmul " << c.m << "x" << c.k << "x" << c.n << (c.residual ? " +residual" : "")
                << (c.fp32_out ? " fp32 out" : "") << " (" << r.kernel << "): ";
            if (r.mismatches > 0)
                out << r.mismatches << " wrong";
            else if (r.rounded_twice > 0)
                out << "within one ulp (" << r.rounded_twice
                    << " rounded before the residual was added)";
            else
                out << "exact";
            out << "\n";
            ok = ok && r.mismatches == 0;
        }
    return ok;
}

// Every attention kernel against a double-precision softmax (attention_check.h).
bool check_attentions(DType dtype, std::ostream& out) {
    if (dtype == DType::Fp32) return true;  // the 16-bit kernels are what is checked
    bool ok = true;
    for (const AttentionCase& c : default_attention_cases()) {
        const AttentionCheck r = check_attention(dtype, c);
        out << "attention " << c.sequences << "x" << c.positions << " after " << c.cached
            << " keys, " << c.heads << "/" << c.kv_heads << " heads, head_dim " << c.head_dim
            << " (" << r.kernel << "): max error " << r.max_abs_error << " (tolerance "
            << r.tolerance << ")" << (r.ok() ? "" : " FAIL") << "\n";
        ok = ok && r.ok();
    }
    return ok;
}

}  // namespace

double logit_tolerance(const std::string& dtype) {
    if (dtype == "fp32") return 1e-3;
    if (dtype == "bf16") return 5e-2;
    return 2e-2;  // fp16
}

int run_gpu_check(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
    CheckOptions o;
    if (auto e = parse(args, o); !e.empty()) {
        err << "tokenscope-gpu-check: " << e << "\n";
        return 1;
    }
    if (CudaDecodeRunner::device_count() == 0) {
        out << "no GPU\n";
        return 3;
    }
    try {
        out << "gpu: " << CudaDecodeRunner::device_name(0) << "\n"
            << "model " << o.shape.name << " " << to_string(o.shape.dtype) << ", batch "
            << o.config.batch << ", prompt " << o.config.prompt_len << ", " << o.config.new_tokens
            << " tokens greedy" << (o.cuda_graphs ? ", decode as CUDA graphs" : "") << "\n";
        const bool matmuls_ok =
            check_matmuls(o.shape.dtype, out) && check_attentions(o.shape.dtype, out);
        const cpu::GenerationResult ref = cpu::cpu_generate(o.shape, o.config);
        CudaDecodeRunner runner(o.shape, o.config);
        out << "kernels: " << runner.kernels_description() << "\n";
        runner.set_prompts(ref.prompts);
        runner.set_cuda_graphs(o.cuda_graphs);
        const DecodeResult gpu = runner.run();
        if (o.cuda_graphs)
            out << "graph launches: " << gpu.graph_launches
                << ", instantiations: " << gpu.graph_instantiations << "\n";

        const bool equal = gpu.tokens == ref.tokens;
        std::size_t first_diff = 0;
        while (equal == false && first_diff < gpu.tokens.size() &&
               gpu.tokens[first_diff] == ref.tokens[first_diff])
            ++first_diff;
        double max_diff = 0.0, max_ref = 0.0;
        const auto vocab = static_cast<std::size_t>(o.shape.vocab);
        for (std::size_t r = 0; r < ref.last_logits.size(); ++r)
            for (std::size_t v = 0; v < vocab; ++v) {
                const double a = gpu.final_logits[r * vocab + v], b = ref.last_logits[r][v];
                max_diff = std::max(max_diff, std::fabs(a - b));
                max_ref = std::max(max_ref, std::fabs(b));
            }
        const double tolerance = logit_tolerance(std::string(to_string(o.shape.dtype)));
        const double relative = max_ref > 0.0 ? max_diff / max_ref : max_diff;
        const bool logits_ok = relative <= tolerance;
        out << "tokens equal: " << (equal ? "yes" : "no");
        if (!equal) out << " (request " << first_diff << " differs)";
        out << "\nmax |logit difference|: " << max_diff << " (" << relative * 100.0
            << "% of max |logit| " << max_ref << "; tolerance " << tolerance * 100.0 << "%)\n"
            << "result: " << (equal && logits_ok && matmuls_ok ? "PASS" : "FAIL") << "\n";
        return equal && logits_ok && matmuls_ok ? 0 : 1;
    } catch (const std::exception& e) {
        err << "tokenscope-gpu-check: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace tokenscope::kernels::cuda
