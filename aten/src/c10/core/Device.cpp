#include <c10/core/Device.h>
#include <c10/util/Exception.h>

#include <cctype>

namespace c10 {

const char* toString(DeviceType t) {
  switch (t) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::CUDA: return "cuda";
    case DeviceType::Meta: return "meta";
  }
  return "unknown";
}

Device::Device(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string type_name = spec.substr(0, colon);
  if (type_name == "cpu") {
    type = DeviceType::CPU;
  } else if (type_name == "cuda") {
    type = DeviceType::CUDA;
  } else if (type_name == "meta") {
    type = DeviceType::Meta;
  } else {
    TORCH_CHECK(false, "Expected one of cpu, cuda, meta device type at start of device string: ", spec);
  }
  if (colon == std::string::npos) return;
  const std::string idx = spec.substr(colon + 1);
  bool digits = !idx.empty() && idx.size() <= 3;
  for (char c : idx) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  TORCH_CHECK(digits && std::stoi(idx) < 128, "Invalid device string: '", spec, "'");
  index = static_cast<int8_t>(std::stoi(idx));
}

std::string Device::str() const {
  std::string s = toString(type);
  if (has_index()) s += ":" + std::to_string(index);
  return s;
}

}  // namespace c10
