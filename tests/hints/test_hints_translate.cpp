// Detection of the MPI-IO layer from the library string and the io MCA variable, translation
// of logical settings per implementation, and the verification statuses.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hints/hints_report.hpp"

using namespace nwpio::detail;
using namespace nwpio::detail::hints;
using nwpio::detail::LayoutFacts;

namespace {

const std::string kOmpi414 = "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022";
const std::string kOmpi416 = "Open MPI v4.1.6, package: Open MPI, ident: 4.1.6";
const std::string kMpich = "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n";
const std::map<std::string, int> kPrio = {{"ompio", 30}, {"romio321", 10}};

Resolved everything_set() {
  nwpio::HintOptions o;
  o.overrides = {{"stripe_count", "4"},        {"stripe_size", "2MiB"},        {"aggregators", "2"},
                 {"cb_buffer_size", "8MiB"},   {"collective_write", "false"},   {"data_sieving_write", "false"},
                 {"no_indep_rw", "false"},     {"lustre_ds_in_coll", "false"},  {"lustre_lockahead", "true"},
                 {"header_align", "4096"},     {"var_align", "8192"},           {"record_align", "16384"},
                 {"ibuf_size", "1MiB"},        {"romio_cb_read", "enable"},     {"nc_header_read_chunk_size", "65536"}};
  Resolved r = merge_levels(o, Environment{});
  derive(r, 0);
  return r;
}

const Entry& entry(const std::vector<Entry>& es, const std::string& name) {
  for (const auto& e : es) {
    if (e.name == name) return e;
  }
  throw std::runtime_error("no entry " + name);
}

std::string key_of(const Entry& e, std::size_t i = 0) { return e.keys.size() > i ? e.keys[i].key : ""; }

}  // namespace

TEST(HintDetect, OpenMpiFollowsTheIoSelectionAndPriorities) {
  MpiIo d = classify(kOmpi414, "", kPrio);
  EXPECT_EQ(d.vendor, "Open MPI");
  EXPECT_EQ(d.layer, IoLayer::Ompio);
  EXPECT_EQ(d.major * 10000 + d.minor * 100 + d.patch, 40104);
  EXPECT_FALSE(d.ompio_standard_striping);
  EXPECT_EQ(classify(kOmpi414, "romio321", kPrio).layer, IoLayer::Romio);
  EXPECT_EQ(classify(kOmpi414, "^ompio", kPrio).layer, IoLayer::Romio);
  EXPECT_EQ(classify(kOmpi414, "ompio,romio321", kPrio).layer, IoLayer::Ompio);
  // A site that raised ROMIO's priority gets ROMIO by default.
  EXPECT_EQ(classify(kOmpi414, "", {{"ompio", 30}, {"romio321", 40}}).layer, IoLayer::Romio);
  EXPECT_FALSE(classify(kOmpi414, "romio321", kPrio).lockahead);
  EXPECT_TRUE(classify(kOmpi416, "", kPrio).ompio_standard_striping);
}

TEST(HintDetect, MpichFamilyUsesRomio) {
  MpiIo d = classify(kMpich, "", {});
  EXPECT_EQ(d.vendor, "MPICH");
  EXPECT_EQ(d.layer, IoLayer::Romio);
  EXPECT_EQ(d.component, "ROMIO");
  EXPECT_EQ(d.major * 10000 + d.minor * 100 + d.patch, 40002);
  EXPECT_NE(d.how.find("OMPI_MCA_* variables do not apply"), std::string::npos) << d.how;
  EXPECT_TRUE(d.lockahead);
  EXPECT_FALSE(classify("MPICH Version:\t3.2.1\n", "", {}).lockahead);
  EXPECT_EQ(classify("Intel(R) MPI Library 2021.5 for Linux* OS", "", {}).layer, IoLayer::Romio);
}

TEST(HintTranslate, RomioKeys) {
  const auto es = translate(everything_set(), classify(kOmpi414, "romio321", kPrio));
  EXPECT_EQ(key_of(entry(es, "stripe_count")), "striping_factor");
  EXPECT_EQ(key_of(entry(es, "stripe_size")), "striping_unit");
  const Entry& agg = entry(es, "aggregators");
  ASSERT_EQ(agg.keys.size(), 1u);
  EXPECT_EQ(agg.keys[0].key, "cb_nodes");
  // The node count is unknown here: the per-node cap is the total, as ROMIO needs to reach it
  // with every rank on one host.
  const Entry& per_node = entry(es, "aggregators_per_node");
  ASSERT_EQ(per_node.keys.size(), 1u);
  EXPECT_EQ(per_node.keys[0].key, "cb_config_list");
  EXPECT_EQ(per_node.keys[0].value, "*:" + agg.value);
  EXPECT_EQ(key_of(entry(es, "collective_write")), "romio_cb_write");
  EXPECT_EQ(entry(es, "collective_write").keys[0].value, "disable");
  EXPECT_EQ(key_of(entry(es, "data_sieving_write")), "romio_ds_write");
  EXPECT_EQ(key_of(entry(es, "no_indep_rw")), "romio_no_indep_rw");
  EXPECT_EQ(key_of(entry(es, "lustre_ds_in_coll")), "romio_lustre_ds_in_coll");
  EXPECT_EQ(entry(es, "lustre_lockahead").status, "dropped");  // romio321 predates it
  EXPECT_EQ(entry(es, "raw:romio_cb_read").status, "passed");
  EXPECT_EQ(key_of(entry(es, "header_align")), "nc_header_align_size");
  EXPECT_EQ(key_of(entry(es, "var_align")), "nc_var_align_size");
  EXPECT_EQ(key_of(entry(es, "record_align")), "nc_record_align_size");
  EXPECT_EQ(key_of(entry(es, "ibuf_size")), "nc_ibuf_size");
  EXPECT_EQ(entry(es, "raw:nc_header_read_chunk_size").target, "PnetCDF");
}

TEST(HintTranslate, OmpioDropsRomioKeysAndRenamesStriping) {
  const Resolved r = everything_set();
  const auto es = translate(r, classify(kOmpi414, "", kPrio));
  EXPECT_EQ(key_of(entry(es, "stripe_count")), "stripe_width");  // OMPIO before 4.1.6
  EXPECT_EQ(key_of(entry(es, "stripe_size")), "stripe_size");
  EXPECT_EQ(entry(es, "aggregators").keys.size(), 1u);  // cb_nodes
  EXPECT_EQ(entry(es, "aggregators_per_node").status, "dropped");  // no cb_config_list in OMPIO
  EXPECT_EQ(key_of(entry(es, "collective_write")), "collective_buffering");
  EXPECT_EQ(entry(es, "collective_write").keys[0].value, "false");
  for (const char* name : {"data_sieving_write", "no_indep_rw", "lustre_ds_in_coll", "lustre_lockahead",
                           "raw:romio_cb_read"}) {
    EXPECT_EQ(entry(es, name).status, "dropped") << name;
    EXPECT_TRUE(entry(es, name).keys.empty()) << name;
    EXPECT_FALSE(entry(es, name).why.empty()) << name;
  }
  for (const auto& e : es) {
    for (const auto& k : e.keys) EXPECT_NE(k.key.rfind("romio_", 0), 0u) << k.key;
  }
  const auto es416 = translate(r, classify(kOmpi416, "", kPrio));
  EXPECT_EQ(key_of(entry(es416, "stripe_count")), "striping_factor");
  EXPECT_EQ(key_of(entry(es416, "stripe_size")), "striping_unit");
}

TEST(HintTranslate, LockaheadWhereRomioHasIt) {
  const auto es = translate(everything_set(), classify(kMpich, "", {}));
  EXPECT_EQ(key_of(entry(es, "lustre_lockahead")), "romio_lustre_cb_lock_ahead_write");
}

TEST(HintTranslate, NoIndepRwOverridesCollectiveWriteOff) {
  nwpio::HintOptions o;
  o.overrides = {{"collective_write", "false"}, {"no_indep_rw", "true"}};
  Resolved r = merge_levels(o, Environment{});
  derive(r, 0);
  const MpiIo romio = classify(kOmpi414, "romio321", kPrio);
  auto es = translate(r, romio);
  FileFacts ext4;
  ext4.fs_type = "ext4";
  verify(es, romio, ext4, LayoutFacts{}, std::nullopt);
  EXPECT_EQ(entry(es, "collective_write").status, "overridden");
  EXPECT_EQ(entry(es, "no_indep_rw").status, "passed");
  // Under OMPIO no_indep_rw is dropped, so nothing overrides collective_buffering=false.
  auto eo = translate(r, classify(kOmpi414, "", kPrio));
  verify(eo, classify(kOmpi414, "", kPrio), ext4, LayoutFacts{}, std::nullopt);
  EXPECT_EQ(entry(eo, "collective_write").status, "passed");
}

TEST(HintTranslate, PnetcdfHintsVariableOverrides) {
  nwpio::HintOptions o;
  o.overrides["header_align"] = "4096";
  Environment env;
  env.foreign["PNETCDF_HINTS"] = "nc_header_align_size=512";
  Resolved r = merge_levels(o, env);
  derive(r, 0);
  const MpiIo io = classify(kOmpi414, "", kPrio);
  auto es = translate(r, io);
  verify(es, io, FileFacts{}, LayoutFacts{}, std::nullopt);
  EXPECT_EQ(entry(es, "header_align").status, "overridden");
}

TEST(HintVerify, StatusesFromFileFactsAndLayout) {
  const Resolved r = everything_set();
  const MpiIo io = classify(kOmpi414, "romio321", kPrio);
  const std::int64_t h = 4096, v = 8192, rec = 16384;  // as asked in everything_set()
  LayoutFacts good;
  good.known = true;
  good.header_size = 300;
  good.header_extent = 2 * v;
  good.var_offsets = {{"fixed", 2 * v}, {"T", 4 * rec}, {"U", 4 * rec + 400}};
  const std::set<std::string> records = {"T", "U"};

  FileFacts ext4;
  ext4.fs_type = "ext4";
  auto es = translate(r, io);
  verify(es, io, ext4, good, records);
  EXPECT_EQ(entry(es, "header_align").status, "verified") << entry(es, "header_align").why;
  EXPECT_EQ(entry(es, "var_align").status, "verified") << entry(es, "var_align").why;
  EXPECT_EQ(entry(es, "record_align").status, "verified") << entry(es, "record_align").why;
  EXPECT_EQ(entry(es, "stripe_count").status, "ignored");
  EXPECT_EQ(entry(es, "lustre_ds_in_coll").status, "ignored");
  EXPECT_EQ(entry(es, "cb_buffer_size").status, "passed");

  LayoutFacts bad = good;
  bad.header_extent = h + 4;
  bad.var_offsets["fixed"] = v + 4;
  bad.var_offsets["T"] = rec + 4;
  auto eb = translate(r, io);
  verify(eb, io, ext4, bad, records);
  EXPECT_EQ(entry(eb, "header_align").status, "mismatch");
  EXPECT_EQ(entry(eb, "var_align").status, "mismatch");
  EXPECT_EQ(entry(eb, "record_align").status, "mismatch");

  auto en = translate(r, io);
  verify(en, io, ext4, good, std::nullopt);
  EXPECT_EQ(entry(en, "record_align").status, "passed");  // record variables unknown

  FileFacts lustre;
  lustre.fs_type = "lustre";
  lustre.lustre = true;
  lustre.stripe_count = std::stoll(r.settings.at("stripe_count").value);
  lustre.stripe_size = std::stoll(r.settings.at("stripe_size").value) * 2;
  auto el = translate(r, io);
  verify(el, io, lustre, good, records);
  EXPECT_EQ(entry(el, "stripe_count").status, "verified");
  EXPECT_EQ(entry(el, "stripe_size").status, "mismatch");
  EXPECT_EQ(entry(el, "lustre_ds_in_coll").status, "passed");

  const auto j = nlohmann::json::parse(report_json(ReportFile{"f.nc", "", true, 11, false, "", {}}, r, io, el, lustre, good));
  EXPECT_EQ(j["settings"].size(), el.size());
  EXPECT_EQ(j["info"]["cb_nodes"], r.settings.at("aggregators").value);
  EXPECT_FALSE(report_text(j.dump()).empty());
}
