#include <ATen/core/dispatcher.h>

#include <ATen/autograd/Node.h>
#include <ATen/autograd/Variable.h>

#include <cctype>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>

namespace c10 {

const char* to_string(DispatchKey key) {
  switch (key) {
    case DispatchKey::CPU: return "CPU";
    case DispatchKey::CUDA: return "CUDA";
    case DispatchKey::CompositeImplicitAutograd: return "CompositeImplicitAutograd";
  }
  return "?";
}

// ---------------------------------------------------------------- schemas

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Splits at top-level commas (not inside [], () or quotes).
std::vector<std::string> split_top_level(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '[' || c == '(') {
      ++depth;
    } else if (c == ']' || c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty() || !parts.empty()) parts.push_back(trim(cur));
  return parts;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

int64_t parse_int(const std::string& text, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  TORCH_CHECK(!text.empty() && *end == '\0' && errno == 0, "schema: ", what, ": '", text, "' is not an int");
  return v;
}

double parse_float(const std::string& text, const std::string& what) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  TORCH_CHECK(!text.empty() && *end == '\0', "schema: ", what, ": '", text, "' is not a float");
  return v;
}

bool parse_bool(const std::string& text, const std::string& what) {
  TORCH_CHECK(text == "True" || text == "False", "schema: ", what, ": '", text, "' is not True or False");
  return text == "True";
}

IValue parse_default(const std::string& text, const SchemaType& type, const std::string& what) {
  if (text == "None") {
    TORCH_CHECK(type.is_optional, "schema: ", what, ": default None needs an optional type (", type.str(), "?)");
    return IValue();
  }
  using B = SchemaType::Base;
  if (type.is_list) {
    TORCH_CHECK(text.size() >= 2 && text.front() == '[' && text.back() == ']', "schema: ", what,
                ": a list default is written [a, b, ...], not '", text, "'");
    std::vector<std::string> items = split_top_level(text.substr(1, text.size() - 2));
    if (type.base == B::Int) {
      std::vector<int64_t> v;
      for (auto& i : items) v.push_back(parse_int(i, what));
      return v;
    }
    if (type.base == B::Float) {
      std::vector<double> v;
      for (auto& i : items) v.push_back(parse_float(i, what));
      return v;
    }
    TORCH_CHECK(false, "schema: ", what, ": a ", type.str(), " argument can only default to None");
  }
  switch (type.base) {
    case B::Int: return parse_int(text, what);
    case B::Float: return parse_float(text, what);
    case B::Bool: return parse_bool(text, what);
    case B::Str:
      TORCH_CHECK(text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front(),
                  "schema: ", what, ": a str default is quoted, not '", text, "'");
      return text.substr(1, text.size() - 2);
    case B::Scalar:
      if (text == "True" || text == "False") return Scalar(text == "True");
      if (text.find_first_of(".eEn") != std::string::npos) return Scalar(parse_float(text, what));
      return Scalar(parse_int(text, what));
    case B::Tensor: break;
  }
  TORCH_CHECK(false, "schema: ", what, ": a Tensor argument can only default to None");
}

// "Tensor(a!)" -> "Tensor" with alias "a!"; the annotation may sit before [] or ?.
std::string strip_alias(const std::string& text, std::string& alias) {
  std::string t = trim(text);
  size_t open = t.find('('), close = t.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return t;
  alias = trim(t.substr(open + 1, close - open - 1));
  TORCH_CHECK(!alias.empty() && is_identifier(alias.back() == '!' ? alias.substr(0, alias.size() - 1) : alias),
              "schema: bad alias annotation in '", text, "' (write Tensor(a) or Tensor(a!))");
  return t.substr(0, open) + t.substr(close + 1);
}

// The type as a schema writes it, with its alias annotation: "Tensor(a!)", "Tensor(a)[]".
std::string annotated(const SchemaType& type, const std::string& alias) {
  if (alias.empty()) return type.str();
  std::string s = type.str();
  size_t base_end = s.find_first_of("[?");
  if (base_end == std::string::npos) base_end = s.size();
  return s.substr(0, base_end) + "(" + alias + ")" + s.substr(base_end);
}

}  // namespace

std::string SchemaType::str() const {
  static const char* names[] = {"Tensor", "int", "float", "bool", "str", "Scalar"};
  std::string s = names[static_cast<int>(base)];
  if (is_list) s += "[]";
  if (is_optional) s += "?";
  return s;
}

SchemaType parse_schema_type(const std::string& text) {
  std::string t = trim(text);
  // Alias annotations ("Tensor(a!)") say what a kernel writes; calls don't need them.
  size_t paren = t.find('(');
  if (paren != std::string::npos && t.back() == ')') t = t.substr(0, paren);
  SchemaType type;
  if (!t.empty() && t.back() == '?') {
    type.is_optional = true;
    t.pop_back();
  }
  size_t bracket = t.find('[');
  if (bracket != std::string::npos) {
    std::string size = t.substr(bracket + 1);
    TORCH_CHECK(!size.empty() && size.back() == ']', "schema: unknown type '", text, "'");
    type.is_list = true;
    t = t.substr(0, bracket);
  }
  static const std::map<std::string, SchemaType::Base> bases = {
      {"Tensor", SchemaType::Base::Tensor}, {"int", SchemaType::Base::Int},   {"SymInt", SchemaType::Base::Int},
      {"float", SchemaType::Base::Float},   {"bool", SchemaType::Base::Bool}, {"str", SchemaType::Base::Str},
      {"Scalar", SchemaType::Base::Scalar}};
  auto it = bases.find(t);
  TORCH_CHECK(it != bases.end(), "schema: unknown type '", trim(text),
              "' (known: Tensor, int, SymInt, float, bool, str, Scalar; with [] for a list and ? for optional)");
  type.base = it->second;
  TORCH_CHECK(!(type.is_list && (type.base == SchemaType::Base::Bool || type.base == SchemaType::Base::Str ||
                                 type.base == SchemaType::Base::Scalar)),
              "schema: lists of ", t, " are not supported");
  return type;
}

FunctionSchema parse_schema(const std::string& text, const std::string& ns) {
  FunctionSchema schema;
  const std::string s = trim(text);
  size_t open = s.find('(');
  TORCH_CHECK(open != std::string::npos, "schema '", text, "': expected name(arguments) -> returns");
  std::string name = trim(s.substr(0, open));
  size_t sep = name.find("::");
  if (sep != std::string::npos) {
    schema.ns = name.substr(0, sep);
    TORCH_CHECK(ns.empty() || schema.ns == ns, "schema '", text, "': namespace '", schema.ns,
                "' in a library for namespace '", ns, "'");
    name = name.substr(sep + 2);
  } else {
    schema.ns = ns;
  }
  size_t dot = name.find('.');
  if (dot != std::string::npos) {
    schema.overload = name.substr(dot + 1);
    name = name.substr(0, dot);
  }
  TORCH_CHECK(is_identifier(schema.ns) && is_identifier(name) && (schema.overload.empty() || is_identifier(schema.overload)),
              "schema '", text, "': the operator name must be ns::name with identifiers");
  schema.name = name;
  // The closing parenthesis of the argument list.
  int depth = 0;
  size_t close = std::string::npos;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  TORCH_CHECK(close != std::string::npos, "schema '", text, "': unbalanced parentheses");
  bool kwarg_only = false;
  std::set<std::string> seen;
  for (const std::string& part : split_top_level(s.substr(open + 1, close - open - 1))) {
    TORCH_CHECK(!part.empty(), "schema '", text, "': empty argument");
    if (part == "*") {
      kwarg_only = true;
      continue;
    }
    SchemaArgument arg;
    std::string decl = part, def;
    size_t eq = part.find('=');
    if (eq != std::string::npos) {
      decl = trim(part.substr(0, eq));
      def = trim(part.substr(eq + 1));
    }
    size_t space = decl.find_last_of(' ');
    TORCH_CHECK(space != std::string::npos, "schema '", text, "': argument '", part, "' needs a type and a name");
    arg.name = trim(decl.substr(space + 1));
    TORCH_CHECK(is_identifier(arg.name), "schema '", text, "': '", arg.name, "' is not an argument name");
    TORCH_CHECK(seen.insert(arg.name).second, "schema '", text, "': argument '", arg.name, "' appears twice");
    arg.type = parse_schema_type(strip_alias(decl.substr(0, space), arg.alias));
    arg.is_write = !arg.alias.empty() && arg.alias.back() == '!';
    TORCH_CHECK(arg.alias.empty() || arg.type.base == SchemaType::Base::Tensor, "schema '", text,
                "': only Tensor arguments carry alias annotations ('", arg.name, "')");
    arg.kwarg_only = kwarg_only;
    if (eq != std::string::npos) {
      arg.has_default = true;
      arg.default_text = def;
      IValue v = parse_default(def, arg.type, "default of '" + arg.name + "'");
      arg.default_value = std::move(v);
    }
    schema.arguments.push_back(std::move(arg));
  }
  std::string rest = trim(s.substr(close + 1));
  TORCH_CHECK(rest.rfind("->", 0) == 0, "schema '", text, "': expected '-> returns' after the arguments");
  std::string rets = trim(rest.substr(2));
  if (!rets.empty() && rets.front() == '(') {
    TORCH_CHECK(rets.back() == ')', "schema '", text, "': unbalanced return tuple");
    schema.returns_tuple = true;
    rets = rets.substr(1, rets.size() - 2);
  }
  for (const std::string& r : split_top_level(rets)) {
    // A return may carry a name ("Tensor values"); only its type matters.
    std::string type = r;
    size_t space = r.find_last_of(' ');
    if (space != std::string::npos && r.back() != ')') type = r.substr(0, space);
    std::string alias;
    schema.returns.push_back(parse_schema_type(strip_alias(type, alias)));
    schema.return_aliases.push_back(alias);
  }
  TORCH_CHECK(!schema.returns.empty() || schema.returns_tuple, "schema '", text,
              "': no return type (write -> () for none)");
  return schema;
}

std::string FunctionSchema::str() const {
  std::string s = full_name() + "(";
  bool kw = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const auto& a = arguments[i];
    if (i) s += ", ";
    if (a.kwarg_only && !kw) {
      s += "*, ";
      kw = true;
    }
    s += annotated(a.type, a.alias) + " " + a.name;
    if (a.has_default) s += "=" + a.default_text;
  }
  s += ") -> ";
  if (returns_tuple || returns.size() != 1) s += "(";
  for (size_t i = 0; i < returns.size(); ++i)
    s += (i ? ", " : "") + annotated(returns[i], i < return_aliases.size() ? return_aliases[i] : "");
  if (returns_tuple || returns.size() != 1) s += ")";
  return s;
}

// ---------------------------------------------------------------- registry

struct Dispatcher::Impl {
  mutable std::mutex mutex;
  // Entries never move or die: callers keep pointers to them.
  std::deque<OperatorEntry> entries;
  std::unordered_map<std::string, OperatorEntry*> by_name;
  std::map<std::string, std::string> namespaces;  // claimed by TORCH_LIBRARY at
  std::map<std::string, std::string> python_modules;  // ns -> module of its fake kernels
  std::vector<std::string> errors;
};

Dispatcher::Dispatcher() : impl_(std::make_unique<Impl>()) {}

Dispatcher& Dispatcher::singleton() {
  static Dispatcher* d = new Dispatcher();  // never destroyed: kernels may run during exit
  return *d;
}

void Dispatcher::claim_namespace(const std::string& ns, const std::string& where) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto [it, inserted] = impl_->namespaces.emplace(ns, where);
  TORCH_CHECK(inserted, "Only a single TORCH_LIBRARY can be used to register the namespace ", ns,
              "; please put all of your definitions in a single TORCH_LIBRARY block (or use TORCH_LIBRARY_FRAGMENT). "
              "The namespace was already registered at ", it->second, "; this one is at ", where);
}

const OperatorEntry& Dispatcher::def(FunctionSchema schema, const std::string& where) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const std::string name = schema.full_name();
  auto it = impl_->by_name.find(name);
  TORCH_CHECK(it == impl_->by_name.end(), "operator ", name, " is already defined (at ",
              it == impl_->by_name.end() ? "" : it->second->defined_at_,
              "); define another overload with a name of its own (", schema.qualified_name(), ".my_overload(...))");
  OperatorEntry& entry = impl_->entries.emplace_back();
  entry.schema_ = std::move(schema);
  entry.defined_at_ = where;
  impl_->by_name.emplace(name, &entry);
  return entry;
}

void Dispatcher::impl(const std::string& qualified_name, DispatchKey key, BoxedKernel kernel,
                      const std::vector<SchemaType>& arg_types, const std::vector<SchemaType>& return_types,
                      const std::string& where) {
  const OperatorEntry* entry = find(qualified_name);
  TORCH_CHECK(entry, "m.impl(\"", qualified_name, "\") at ", where,
              ": no such operator; define it first with m.def(schema) in a TORCH_LIBRARY block");
  const FunctionSchema& schema = entry->schema();
  auto list = [](const std::vector<SchemaType>& types) {
    std::string s;
    for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i].str();
    return "(" + s + ")";
  };
  std::vector<SchemaType> declared;
  for (const auto& a : schema.arguments) declared.push_back(a.type);
  TORCH_CHECK(declared == arg_types && schema.returns == return_types, "the kernel for ", qualified_name,
              " registered at ", where, " takes ", list(arg_types), " and returns ", list(return_types),
              ", but its schema says ", list(declared), " -> ", list(schema.returns), " (", schema.str(), ")");
  auto boxed = std::make_shared<const BoxedKernel>(std::move(kernel));
  std::lock_guard<std::mutex> lock(entry->mutex_);
  auto& slot = const_cast<OperatorEntry*>(entry)->kernels_[static_cast<int>(key)];
  TORCH_CHECK(!slot, "operator ", qualified_name, " already has a ", to_string(key), " kernel; a second one at ",
              where, " is refused");
  slot = std::move(boxed);
}

const OperatorEntry* Dispatcher::find(const std::string& qualified_name) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto it = impl_->by_name.find(qualified_name);
  return it == impl_->by_name.end() ? nullptr : it->second;
}

std::vector<std::string> Dispatcher::operator_names(const std::string& ns) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& e : impl_->entries)
    if (e.schema().ns == ns && seen.insert(e.schema().name).second) names.push_back(e.schema().name);
  return names;
}

std::vector<std::string> Dispatcher::overload_names(const std::string& qualified_name) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<std::string> names;
  for (const auto& e : impl_->entries)
    if (e.schema().qualified_name() == qualified_name) names.push_back(e.schema().overload);
  return names;
}

void Dispatcher::set_python_module(const std::string& ns, const std::string& module) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->python_modules[ns] = module;
}

std::optional<std::string> Dispatcher::python_module(const std::string& ns) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto it = impl_->python_modules.find(ns);
  return it == impl_->python_modules.end() ? std::nullopt : std::optional<std::string>(it->second);
}

void Dispatcher::record_registration_error(const std::string& message) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->errors.push_back(message);
}

std::vector<std::string> Dispatcher::take_registration_errors() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<std::string> errors;
  errors.swap(impl_->errors);
  return errors;
}

// ---------------------------------------------------------------- calls

std::shared_ptr<const BoxedKernel> OperatorEntry::kernel(DispatchKey key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kernels_[static_cast<int>(key)];
}

std::vector<DispatchKey> OperatorEntry::registered_keys() const {
  std::vector<DispatchKey> keys;
  for (DispatchKey k : {DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::CompositeImplicitAutograd})
    if (kernel(k)) keys.push_back(k);
  return keys;
}

namespace {

template <typename F>
void for_each_tensor(Stack& stack, size_t n, F&& f) {
  for (size_t i = 0; i < n && i < stack.size(); ++i) {
    if (stack[i].is<at::Tensor>()) f(stack[i].get<at::Tensor>());
    if (stack[i].is<std::vector<at::Tensor>>())
      for (const at::Tensor& t : stack[i].get<std::vector<at::Tensor>>()) f(t);
  }
}

}  // namespace

// The schema's alias annotations, enforced around a kernel: an argument it
// declares written (Tensor(a!)) gets its version bumped, as an in-place op's
// does, so autograd sees the write (a leaf that requires grad may be written,
// as PyTorch's fallback for custom operators allows); one it does not declare must come back
// with its version unchanged (a kernel writing it through an ATen in-place op
// is refused by name). A write through a raw pointer leaves no version
// behind: torch.library.opcheck compares values to catch that.
class AliasCheck {
 public:
  AliasCheck(const FunctionSchema& schema, Stack& stack) : schema_(schema) {
    const auto& args = schema.arguments;
    for (size_t i = 0; i < args.size() && i < stack.size(); ++i) {
      auto add = [&](const at::Tensor& t) {
        if (!t.defined()) return;
        c10::TensorImpl* impl = t.unsafeGetTensorImpl();
        seen_.push_back({i, impl, impl->version_counter().get(), impl->version()});
      };
      if (stack[i].is<at::Tensor>()) add(stack[i].get<at::Tensor>());
      if (stack[i].is<std::vector<at::Tensor>>())
        for (const at::Tensor& t : stack[i].get<std::vector<at::Tensor>>()) add(t);
    }
  }

  void after_kernel() const {
    const auto& args = schema_.arguments;
    for (const Seen& s : seen_) {
      const SchemaArgument& arg = args[s.arg];
      if (arg.is_write || s.impl->version() == s.version) continue;
      bool shares_a_written_tensor = false;  // add_into(a, b, out=a): a's counter is out's
      for (const Seen& w : seen_) shares_a_written_tensor |= args[w.arg].is_write && w.counter == s.counter;
      TORCH_CHECK(shares_a_written_tensor, schema_.full_name(), " wrote to its argument '", arg.name,
                  "', which its schema does not declare as written: declare it Tensor(a!) ", arg.name, " (",
                  schema_.str(), ")");
    }
    std::set<const void*> bumped;
    for (const Seen& s : seen_)
      if (args[s.arg].is_write && bumped.insert(s.counter).second) s.impl->bump_version();
  }

 private:
  struct Seen {
    size_t arg;
    c10::TensorImpl* impl;
    const void* counter;
    uint32_t version;
  };
  const FunctionSchema& schema_;
  std::vector<Seen> seen_;
};

void OperatorEntry::call(Stack& stack) const {
  const size_t num_args = schema_.arguments.size();
  TORCH_INTERNAL_ASSERT(stack.size() == num_args, "a call to ", schema_.qualified_name(), " with ", stack.size(),
                        " arguments");
  const AliasCheck aliases(schema_, stack);
  run_kernel(stack);
  aliases.after_kernel();
}

void OperatorEntry::run_kernel(Stack& stack) const {
  const size_t num_args = schema_.arguments.size();
  // The kernel for the device of the first tensor argument.
  std::optional<at::Device> device;
  for_each_tensor(stack, num_args, [&](const at::Tensor& t) {
    if (!device && t.defined()) device = t.device();
  });
  const bool on_cuda = device && device->type == at::DeviceType::CUDA;
  const DispatchKey key = on_cuda ? DispatchKey::CUDA : DispatchKey::CPU;
  if (auto device_kernel = kernel(key)) {
    // A backend kernel has no derivative of its own: what it computes is not
    // recorded, and a gradient reaching its outputs raises (PyTorch's
    // autograd-not-implemented fallback). Differentiate it with a
    // torch.autograd.Function around the call.
    std::vector<at::Tensor> inputs;
    for_each_tensor(stack, num_args, [&](const at::Tensor& t) { inputs.push_back(t); });
    std::shared_ptr<at::autograd::NotImplementedBackward> grad_fn;
    if (at::autograd::any_requires_grad(inputs)) {
      grad_fn = std::make_shared<at::autograd::NotImplementedBackward>(schema_.qualified_name());
      grad_fn->add_input_list(inputs);
    }
    {
      at::autograd::AutoGradMode no_grad(false);
      (*device_kernel)(stack);
    }
    if (grad_fn) {
      std::vector<at::Tensor> outputs;
      for_each_tensor(stack, stack.size(), [&](const at::Tensor& t) { outputs.push_back(t); });
      grad_fn->set_num_outputs(static_cast<uint32_t>(outputs.size()));
      for (size_t i = 0; i < outputs.size(); ++i) {
        bool aliases_input = false;
        for (const auto& in : inputs) aliases_input |= in.unsafeGetTensorImpl() == outputs[i].unsafeGetTensorImpl();
        if (!aliases_input) at::autograd::set_history(outputs[i], grad_fn, static_cast<uint32_t>(i));
      }
    }
    return;
  }
  if (auto composite = kernel(DispatchKey::CompositeImplicitAutograd)) {
    (*composite)(stack);  // made of other ops, which record their own derivatives
    return;
  }
  std::string available;
  for (DispatchKey k : registered_keys()) available += std::string(available.empty() ? "" : ", ") + to_string(k);
  TORCH_CHECK_NOT_IMPLEMENTED(false, "Could not run '", schema_.qualified_name(), "' with arguments from the '",
                              to_string(key), "' backend. '", schema_.qualified_name(),
                              "' is only available for these backends: [", available, "].");
}

}  // namespace c10
