// The property parser (docs/design.md §3): one property in PRISM syntax, subset.
//
//   property  := state
//   state     := or ( '=>' state )?                  -- right-associative
//   or        := and ( '|' and )*
//   and       := unary ( '&' unary )*
//   unary     := '!' unary | 'true' | 'false' | "label" | '(' state ')' | operator | filter | atom
//   atom      := an expression over the model's state variables, e.g. s=7,
//                x1+x2>=2, b, min(a,b)<3 (grammar in parser.cpp; PRISM's
//                arithmetic, comparisons and min max floor ceil round pow mod log)
//   operator  := ( 'P' | 'Pmin' | 'Pmax' ) cmp '[' path ( '||' path )? ']'
//              | ( 'R' ( '{' "name" '}' )? ( 'min' | 'max' )? | 'Rmin' | 'Rmax' ) cmp '[' reward ']'
//              | ( 'S' | 'LRA' | 'LRAmin' | 'LRAmax' ) cmp '[' state ']'
//              | ( 'T' | 'Tmin' | 'Tmax' ) cmp '[' 'F' state ']'
//   filter    := 'filter' '(' filterop ',' state ( ',' state )? ')'
//   filterop  := min | max | argmin | argmax | count | sum | avg | first | range
//              | forall | exists | print | printall | state | '+' | '&' | '|'
//   cmp       := '=?' | ( '<' | '<=' | '>' | '>=' ) value
//   path      := 'X' state | 'F' bound? state | 'G' bound? state | state 'U' bound? state
//   bound     := '<=' value | '>=' value | '[' value ',' value ']'
//              | '^'? '{' ref rel '}' | '{' "name" '}' rel      -- Storm's; F and U only for a reward
//   ref       := ( 'rew' ( '{' "name" '}' )? | '{' "name" '}' )  -- a reward bound (RewardBound)
//              | 'steps' | 'time' | nothing                       -- the time bound again
//   rel       := ( '<=' | '<' | '>=' | '>' ) value | '=' value | '[' value ',' value ']'
//   reward    := 'F' state | 'C' '<=' value | 'I' '=' value | 'S' | 'LRA'
//   value     := a number, or an arithmetic expression over constants (PRISM's
//                `F<=T`, `C<=(T*3600)`, `U[T1,T2]`, `P>=p`), kept unevaluated
//                (Number::expression, Operator::threshold_expression) until
//                bind_definitions (property/definitions.hpp) gives the constants
//
// PRISM's filters: `filter(max, R=? [ F "stable" ], "init")` reduces the
// operand's values over the states where the third argument holds (every
// state when it is left out); '+', '&' and '|' are PRISM's shorthands for
// sum, forall and exists. A query operator (`=?`) may be a filter's operand.
// A filter that gives a number (min, max, count, sum, avg, range, and first,
// state over a number) may stand only as the whole property or as another
// filter's operand; print and printall only as the whole property.
// Operand types the text decides (a query is a number, a label a truth
// value) are checked here, the types of expressions over state variables
// by the checker.
//
// Storm's expected time `T=? [ F "goal" ]` (Tmin/Tmax for MDPs; bounds
// `T<=5 [ F "goal" ]`): `T` is the operator only where a comparison and
// '[' follow, so a state variable may still be named T.
//
// Storm's additions: reward bounds (`F^{rew{"r"}<=b} a`, `F{"r"}<=b a`,
// `a U^{rew{"r"}>=b} c`; a list of several bounds, a reward interval and a
// reward bound on G are refused as not supported), `P=? [ F "a" || F "b" ]`, the probability of F "a"
// given F "b" (only in the outermost operator), and LRA for S (`LRA=? [ "a" ]`,
// `R=? [ LRA ]`; LRAmin/LRAmax for MDPs). A reserved word where a state
// formula belongs (`F`, `C`, `true`, ...) is reported as a keyword, any
// other bare word with the hint to quote it as a label.
//
// As in PRISM, the operand of X/F/G and both operands of U are whole state
// formulas: `F "a" & !"b"` is `F ("a" & !"b")`, and `"a" U "b" | "c"` is
// `"a" U ("b" | "c")`. Only the outermost operator may be a query (`=?`).
// "init" and "deadlock" are ordinary labels here; the model supplies them.
// A bare word is a state variable (`P=? [ F s=7 & d=6 ]`): the checker
// looks it up in the model's state valuations and types the expression.
#pragma once

#include <string_view>

#include "property/ast.hpp"

namespace pmc::property {

// Parses one property. Throws pmc::Error with ErrorCode::property whose
// message starts with "column N: " (1-based, counted in bytes) and says what
// was expected and what was found, followed by the text and a caret, e.g.
//   column 10: expected ']' but found end of input
//     P=?[F "a"
//              ^
// Probability and steady-state bounds written as numbers must lie in [0,1],
// time bounds and reward bounds must be non-negative (those written as
// expressions are checked once evaluated, by bind_definitions), and formulas
// deeper than k_max_depth are rejected (so no input can exhaust the stack).
// Thread-safe.
Property parse_property(std::string_view text);

}  // namespace pmc::property
