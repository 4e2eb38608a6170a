// A refused command line says so as every other error of optiml does (docs/cli.md).
#include "driver/cli/commands.h"

namespace optiml::cli {

int report_parse_error(const CLI::App& app, const CLI::ParseError& error, std::ostream& out,
                       std::ostream& err) {
    // --help, --help-all and --version are "errors" that end the parse with status 0; a
    // CLI::RuntimeError carries the status a callback chose and prints nothing.
    if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success) ||
        error.get_name() == "RuntimeError")
        return app.exit(error, out, err);
    err << "optiml: error: " << error.what() << "\n";
    return 2;
}

}  // namespace optiml::cli
