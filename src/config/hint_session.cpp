// STUB until the hints work (issue 4) lands: no hints, empty report.
#include "config/hint_session.hpp"

namespace nwpio::detail {

struct HintSession::Impl {};

HintSession HintSession::resolve(const HintOptions&, IoForm, MPI_Comm, std::int64_t) { return HintSession(); }
HintSession::HintSession() : impl_(std::make_unique<Impl>()) {}
HintSession::~HintSession() = default;
HintSession::HintSession(HintSession&&) noexcept = default;
HintSession& HintSession::operator=(HintSession&&) noexcept = default;
MPI_Info HintSession::info() const noexcept { return MPI_INFO_NULL; }
std::string HintSession::verify_and_report(const std::string&, const LayoutFacts&) { return "{}"; }

}  // namespace nwpio::detail
