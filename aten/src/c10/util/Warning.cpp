#include <c10/util/Warning.h>

#include <atomic>
#include <cstdio>

namespace c10 {
namespace {
std::atomic<WarningHandler> handler{nullptr};
}

void set_warning_handler(WarningHandler h) { handler.store(h); }

void warn(const std::string& message) {
  if (WarningHandler h = handler.load()) {
    h(message);
  } else {
    std::fprintf(stderr, "Warning: %s\n", message.c_str());
  }
}

}  // namespace c10
