#include <ATen/native/Distributions.h>

#include <ATen/ATen.h>
#include <ATen/core/Generator.h>

#include <cmath>
#include <mutex>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(uniform_stub);
DEFINE_DISPATCH(normal_stub);
DEFINE_DISPATCH(box_muller_float_stub);
DEFINE_DISPATCH(random_stub);
DEFINE_DISPATCH(bernoulli_scalar_stub);
DEFINE_DISPATCH(arange_stub);

// Draws with the CPU generator: with replacement by inverting the row's
// cumulative distribution, without by repeated draws from what is left.
Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement) {
  TORCH_CHECK(self.dim() == 1 || self.dim() == 2, "prob_dist must be 1 or 2 dim");
  TORCH_CHECK(self.is_floating_point(), "multinomial only supports floating-point dtypes for input, got: ",
              self.scalar_type());
  TORCH_CHECK(num_samples > 0, "cannot sample n_sample <= 0 samples");
  const int64_t categories = self.size(-1);
  TORCH_CHECK(replacement || num_samples <= categories, "cannot sample n_sample > prob_dist.size(-1) samples without "
              "replacement");
  const Tensor probs = self.reshape({-1, categories}).to(ScalarType::Double).contiguous().to(Device(DeviceType::CPU), std::nullopt, false, false);
  const int64_t rows = probs.size(0);
  Tensor out = at::empty({rows, num_samples}, ScalarType::Long, Device(DeviceType::CPU));
  const double* p = probs.data_ptr<double>();
  int64_t* o = out.data_ptr<int64_t>();
  auto& gen = default_cpu_generator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  std::vector<double> weights(categories);
  for (int64_t r = 0; r < rows; ++r) {
    double total = 0;
    for (int64_t j = 0; j < categories; ++j) {
      const double v = p[r * categories + j];
      TORCH_CHECK(std::isfinite(v) && v >= 0, "probability tensor contains either `inf`, `nan` or element < 0");
      weights[j] = v;
      total += v;
    }
    TORCH_CHECK(total > 0, "invalid multinomial distribution (sum of probabilities <= 0)");
    for (int64_t s = 0; s < num_samples; ++s) {
      double u = gen.uniform() * total, acc = 0;
      int64_t pick = categories - 1;
      for (int64_t j = 0; j < categories; ++j) {
        acc += weights[j];
        if (u < acc && weights[j] > 0) {
          pick = j;
          break;
        }
      }
      while (weights[pick] == 0 && pick > 0) --pick;  // rounding at the top end
      o[r * num_samples + s] = pick;
      if (!replacement) {
        total -= weights[pick];
        weights[pick] = 0;
        if (s + 1 < num_samples) {
          TORCH_CHECK(total > 0, "invalid multinomial distribution (with replacement=False, not enough non-negative "
                      "category to sample)");
        }
      }
    }
  }
  Tensor result = out.to(self.device(), std::nullopt, false, false);
  return self.dim() == 1 ? result.view({num_samples}) : result;
}

}  // namespace at::native
