#pragma once
// The DLPack ABI (version 0.8, the unversioned "dltensor" capsule), written
// out from the DLPack specification: the structs numpy, PyTorch and others
// exchange through __dlpack__.
#include <cstdint>

extern "C" {

enum DLDeviceType : int32_t { kDLCPU = 1, kDLCUDA = 2 };
enum DLDataTypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; NULL means row-major contiguous
  uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

}  // extern "C"
