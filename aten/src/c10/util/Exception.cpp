#include <c10/util/Exception.h>

namespace c10 {

// The key functions (Exception.h): the type_info of each error lives here only.
Error::~Error() = default;
IndexError::~IndexError() = default;
TypeError::~TypeError() = default;
ValueError::~ValueError() = default;
NotImplementedError::~NotImplementedError() = default;
LinAlgError::~LinAlgError() = default;

}  // namespace c10

namespace c10::detail {

void throw_error(const std::string& msg) { throw Error(msg); }
void throw_index_error(const std::string& msg) { throw IndexError(msg); }
void throw_type_error(const std::string& msg) { throw TypeError(msg); }
void throw_value_error(const std::string& msg) { throw ValueError(msg); }
void throw_not_implemented_error(const std::string& msg) { throw NotImplementedError(msg); }
void throw_linalg_error(const std::string& msg) { throw LinAlgError(msg); }

}  // namespace c10::detail
