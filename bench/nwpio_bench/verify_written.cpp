#include "verify_written.hpp"

#include "workload_real.hpp"

namespace nwpio::bench {

void verify_written(const CaseContext& ctx, const std::string& method, const std::string& path) {
  agree_step(ctx.comm, [&] {
    if (ctx.rank != 0) return;
    // Real fields against their source; a quantizing method (its name says "gbr": GranularBR, 3
    // significant digits) within 1% of each value, still far from a wrong or empty file.
    const double tolerance = method.find("gbr") != std::string::npos ? 1e-2 : 0;
    const synthetic::VerifyResult v = ctx.bench_case->real_fields
                                          ? verify_real_file(path, ctx.bench_case->schema, tolerance)
                                          : synthetic::verify_file(path, ctx.bench_case->schema, 0);
    if (!v.ok) throw Error(ErrorKind::Io, method + " wrote a wrong file " + path + ": " + v.summary());
  });
}

}  // namespace nwpio::bench
