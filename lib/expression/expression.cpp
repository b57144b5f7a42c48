// Expression: the value-semantics handle around compiled code (code.hpp),
// and hand-built literals and variables. Evaluation is evaluator.cpp's.
#include "common/error.hpp"
#include "expression/code.hpp"
#include "expression/syntax_tree.hpp"

namespace pmc::expression {

std::string SourceLocation::to_string() const {
  if (places && line >= 1 && line <= places->size()) return fmt::format("{}: {}", file, (*places)[line - 1]);
  if (column == 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

Expression::Expression() : Expression(boolean(true)) {}
Expression::~Expression() = default;
Expression::Expression(const Expression& other)
    : representation_(std::make_unique<Representation>(*other.representation_)) {
  read_form();
}
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(const Expression& other) {
  if (this != &other) {
    representation_ = std::make_unique<Representation>(*other.representation_);
    read_form();
  }
  return *this;
}
Expression& Expression::operator=(Expression&&) noexcept = default;
Expression::Expression(std::unique_ptr<Representation> representation)
    : representation_(std::move(representation)) {
  read_form();
}

void Expression::read_form() {
  const Representation& r = *representation_;
  type_ = r.type;
  form_ = Form::general;
  if (r.code.size() == 1 && r.code[0].op == Op::push) {
    form_ = Form::constant;
    integer_ = r.type == ValueType::real ? 0 : r.code[0].value.i;
    real_ = r.type == ValueType::real ? r.code[0].value.d : static_cast<double>(r.code[0].value.i);
  } else if (r.shape == Shape::load || r.shape == Shape::load_plus) {
    form_ = Form::variable_plus;
    variable_ = r.variable;
    integer_ = r.shape == Shape::load_plus ? r.offset : 0;
  } else if (r.code.size() == 1 && r.code[0].op == Op::load && r.type != ValueType::real) {
    form_ = Form::variable_plus;
    variable_ = r.code[0].arg;
    integer_ = 0;
  }
}

ValueType Expression::type() const { return representation_->type; }
const SourceLocation& Expression::location() const { return representation_->location; }
bool Expression::is_constant() const { return representation_->constant; }
std::string Expression::to_string() const { return representation_->text; }
const std::vector<VariableRange>& Expression::necessary_ranges() const { return representation_->necessary; }

bool Expression::same_code(const Expression& other) const {
  const Representation &a = *representation_, &b = *other.representation_;
  if (a.type != b.type || a.code.size() != b.code.size()) return false;
  for (size_t i = 0; i < a.code.size(); ++i) {
    if (a.code[i].op != b.code[i].op || a.code[i].arg != b.code[i].arg || a.code[i].value.i != b.code[i].value.i) {
      return false;
    }
  }
  return true;
}

namespace {

// An expression of one instruction: a literal's push or a variable's load.
Expression single_instruction(const Instruction& in, ValueType type, std::string text, Node tree) {
  auto r = std::make_unique<Expression::Representation>();
  tree.type = type;
  r->tree = std::make_shared<const Node>(std::move(tree));
  r->code.push_back(in);
  r->fast = r->code;
  r->type = type;
  r->constant = in.op == Op::push;
  r->stack_size = 1;
  r->state_size = in.op == Op::load ? in.arg + 1 : 0;
  r->text = std::move(text);
  return Expression(std::move(r));
}

Expression literal(ValueType type, Value value, std::string text) {
  Instruction in;
  in.op = Op::push;
  in.value = value;
  Node tree;
  tree.kind = type == ValueType::boolean ? NodeKind::boolean : type == ValueType::integer ? NodeKind::integer : NodeKind::real;
  if (type == ValueType::real) {
    tree.real_value = value.d;
    tree.exact = text;  // the shortest decimal that reads back as the double
  } else {
    tree.int_value = value.i;
  }
  return single_instruction(in, type, std::move(text), std::move(tree));
}

}  // namespace

Expression Expression::boolean(bool value) {
  Value v;
  v.i = value;
  return literal(ValueType::boolean, v, value ? "true" : "false");
}

Expression Expression::integer(int64_t value) {
  Value v;
  v.i = value;
  return literal(ValueType::integer, v, std::to_string(value));
}

Expression Expression::real(double value) {
  Value v;
  v.d = value;
  return literal(ValueType::real, v, real_literal_text(value));
}

Expression Expression::variable(uint32_t index, ValueType type, std::string name) {
  Instruction in;
  in.op = Op::load;
  in.arg = index;
  Node tree;
  tree.kind = NodeKind::variable;
  tree.variable = index;
  tree.name = name;
  return single_instruction(in, type, std::move(name), std::move(tree));
}

}  // namespace pmc::expression
