// What spec adds to base's field-naming reader: SpecError, and expressions.
#include "driver/spec/detail/json_field.h"

#include <limits>

#include "driver/spec/spec.h"

namespace optiml::spec::detail {

void throw_spec_error(const std::string& message) {
    throw SpecError(message);
}

void fail(const std::string& file, const std::string& field, const std::string& problem,
          const std::string& expected) {
    throw SpecError(base::json_field_message(file, field, problem, expected));
}

expr::Expr expression(const Field& field, const std::string& expected) {
    const nlohmann::json& value = field.json();
    if (value.is_string()) {
        const std::string& text = value.get_ref<const std::string&>();
        try {
            return expr::Expr::parse(text);
        } catch (const expr::ExprError& error) {
            // The parser's message already ends with "; expected ...".
            throw SpecError(field.file() + ": " + field.path() + ": bad expression " +
                            base::quote_truncated(text) + ": " + error.what());
        }
    }
    if (value.is_number_integer() &&
        !(value.is_number_unsigned() &&
          value.get<std::uint64_t>() >
              static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
        return expr::Expr::literal(value.get<std::int64_t>());
    }
    field.fail_got(expected);
}

}  // namespace optiml::spec::detail
