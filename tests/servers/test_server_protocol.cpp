// What travels between compute ranks and servers comes back exactly: controls, acks with their
// errors, and stream definitions (every option, every kind of attribute, bytes that are not
// UTF-8, NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nwpio/wrf_conventions.hpp"
#include "servers/server_protocol.hpp"
#include "servers/stream_definition.hpp"

namespace nwpio::detail {
namespace {

TEST(ServerProtocol, ControlRoundTrip) {
  Control c;
  c.command = Command::Frame;
  c.stream = 7;
  c.seq = 123456789012;
  c.date = "2019-06-01_12:00:00";
  c.opens_file = true;
  const Control d = decode_control(encode(c));
  EXPECT_EQ(d.command, Command::Frame);
  EXPECT_EQ(d.stream, 7);
  EXPECT_EQ(d.seq, 123456789012);
  EXPECT_EQ(d.date, c.date);
  EXPECT_TRUE(d.opens_file);

  c.command = Command::Define;
  c.definition = std::string("\x00\xff\xfe binary", 10);
  EXPECT_EQ(decode_control(encode(c)).definition, c.definition);
}

TEST(ServerProtocol, AckRoundTripKeepsTheErrorAndItsBytes) {
  Ack a;
  a.command = Command::Frame;
  a.stream = 2;
  a.seq = 5;
  a.file = std::string("wrfout_\xe9t\xe9", 10);  // Latin-1, not UTF-8
  a.error = Error(ErrorKind::Io, "cannot create /x/wrfout: No space left on device \xff", true);
  a.receive_seconds = 0.25;
  a.unpack_seconds = 0.125;
  a.write_seconds = 1.5;
  const Ack b = decode_ack(encode(a));
  EXPECT_EQ(b.command, Command::Frame);
  EXPECT_EQ(b.stream, 2);
  EXPECT_EQ(b.seq, 5);
  EXPECT_EQ(b.file, a.file);
  ASSERT_TRUE(b.error.has_value());
  EXPECT_EQ(b.error->kind(), ErrorKind::Io);
  EXPECT_STREQ(b.error->what(), a.error->what());
  EXPECT_TRUE(b.error->agreed());
  EXPECT_EQ(b.receive_seconds, 0.25);
  EXPECT_EQ(b.unpack_seconds, 0.125);
  EXPECT_EQ(b.write_seconds, 1.5);

  Ack ok;
  ok.command = Command::Close;
  EXPECT_FALSE(decode_ack(encode(ok)).error.has_value());
}

TEST(ServerProtocol, MalformedBytesAreInternalErrors) {
  try {
    decode_control("not msgpack at all");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Internal);
  }
  EXPECT_THROW(decode_stream_definition("\x01\x02"), Error);
}

TEST(StreamDefinition, RoundTripOfSchemaOptionsAndGrid) {
  StreamDefinition d;
  d.stream = 3;
  d.schema.add_dimension("soil_layers_stag", 4);
  VarSpec t = wrf::variable("T", DataType::Float, MemoryOrder::XZY, Stagger::None, "temp \xb0K", "K");
  set_attribute(t.attributes, Attribute{"missing", std::vector<float>{std::numeric_limits<float>::quiet_NaN(), 1.5f}});
  set_attribute(t.attributes, Attribute{"scale", std::vector<double>{0.1, -1e300}});
  set_attribute(t.attributes, Attribute{"flags", std::vector<std::int32_t>{-3, 2147483647}});
  d.schema.add_variable(t);
  VarSpec soil = wrf::variable("TSLB", DataType::Double, MemoryOrder::XYZ, Stagger::Z, "", "", "soil_layers_stag");
  soil.time_dependent = false;
  d.schema.add_variable(soil);
  d.schema.add_variable(wrf::variable("P_TOP", DataType::Int, MemoryOrder::Scalar, Stagger::None, "", ""));
  d.schema.set_global_attribute({"TITLE", std::string(" OUTPUT FROM \x01 MODEL")});
  d.schema.set_global_attribute({"DX", std::vector<float>{12000.f}});

  OutputOptions& o = d.options;  // every field away from its default
  o.output_dir = "/tmp/out \xe9";
  o.outname = "wrfout_d<domain>_<date>.x";
  o.domain_id = 2;
  o.frames_per_file = 3;
  o.sizing_frames_per_file = 6;
  o.write_behind = false;
  o.nocolons = true;
  o.format = FileFormat::Cdf5;
  o.use_netcdf_classic = true;
  o.deflate_level = 5;
  o.compression_filter = "none";
  o.shuffle = false;
  o.quantize = {"bitround=9", "namelist.input:3:4"};
  o.compression_vars = {"T U: deflate=4", "namelist.input:5:6"};
  o.chunk_max_bytes = 4096;
  o.io_form = IoForm::NetcdfSerial;
  o.fallback_to_serial = true;
  o.start_date = "2019-06-01_00:00:00";
  o.history_interval_seconds = 900;
  o.history_begin_seconds = 60;
  o.iofields_file = "io.txt";
  o.ignore_iofields_warning = false;
  o.e_we = 23;
  o.e_sn = 17;
  o.e_vert = 7;
  o.gather = GatherMode::Direct;
  o.reorder = ReorderMode::Datatype;
  o.writer_ranks = 2;
  o.max_round_bytes = 12345;
  o.shared_memory_exchange = false;
  o.serial_chunk_bytes = 777;
  o.header_reserve_bytes = 99;
  o.server_frames_in_flight = 4;
  o.server_blocking_handoff = true;
  o.server_message_bytes = 4096;
  o.noclobber = true;
  o.fsync_before_rename = false;
  o.print_timing = false;
  o.stats_json = "s.json";
  o.hints.profile_file = "h.toml";
  o.hints.profile = "lustre";
  o.hints.overrides = {{"stripe_count", "4"}, {"raw.x", "y"}};
  o.hints.namelist = {"nl.toml", "gpfs", "a=1;b=2", HintReport::Full};
  o.hints.report = HintReport::Off;
  d.domain.hi = {23, 17, 7};
  d.patches = {Box{{0, 0, 0}, {12, 17, 7}}, Box{{12, 0, 0}, {23, 17, 7}}};

  const StreamDefinition e = decode_stream_definition(encode(d));
  EXPECT_EQ(e.stream, 3);
  EXPECT_EQ(e.domain, d.domain);
  EXPECT_EQ(e.patches, d.patches);
  ASSERT_EQ(e.schema.dimensions().size(), 1u);
  EXPECT_EQ(e.schema.dimensions()[0].name, "soil_layers_stag");
  EXPECT_EQ(e.schema.dimensions()[0].length, 4);
  ASSERT_EQ(e.schema.variables().size(), 3u);
  for (std::size_t v = 0; v < 3; ++v) {
    const VarSpec& a = d.schema.variables()[v];
    const VarSpec& b = e.schema.variables()[v];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.memory_order, b.memory_order);
    EXPECT_EQ(a.stagger, b.stagger);
    EXPECT_EQ(a.time_dependent, b.time_dependent);
    EXPECT_EQ(a.vertical_dim, b.vertical_dim);
    ASSERT_EQ(a.attributes.size(), b.attributes.size()) << a.name;
    for (std::size_t i = 0; i < a.attributes.size(); ++i) {
      EXPECT_EQ(a.attributes[i].name, b.attributes[i].name);
      if (a.attributes[i].name == "missing") {  // NaN != NaN: compare the bits
        const auto& x = std::get<std::vector<float>>(a.attributes[i].value);
        const auto& y = std::get<std::vector<float>>(b.attributes[i].value);
        ASSERT_EQ(x.size(), y.size());
        EXPECT_TRUE(std::isnan(y[0]));
        EXPECT_EQ(x[1], y[1]);
      } else {
        EXPECT_EQ(a.attributes[i], b.attributes[i]) << a.name << "." << a.attributes[i].name;
      }
    }
  }
  EXPECT_EQ(e.schema.global_attributes(), d.schema.global_attributes());

  const OutputOptions& p = e.options;
  EXPECT_EQ(p.output_dir, o.output_dir);
  EXPECT_EQ(p.outname, o.outname);
  EXPECT_EQ(p.domain_id, 2);
  EXPECT_EQ(p.frames_per_file, 3);
  EXPECT_EQ(p.sizing_frames_per_file, 6);
  EXPECT_FALSE(p.write_behind);
  EXPECT_TRUE(p.nocolons);
  EXPECT_EQ(p.format, FileFormat::Cdf5);
  EXPECT_TRUE(p.use_netcdf_classic);
  EXPECT_EQ(p.deflate_level, 5);
  EXPECT_EQ(p.compression_filter, "none");
  EXPECT_FALSE(p.shuffle);
  EXPECT_EQ(p.quantize.text, "bitround=9");
  EXPECT_EQ(p.quantize.origin, "namelist.input:3:4");
  EXPECT_EQ(p.compression_vars.text, "T U: deflate=4");
  EXPECT_EQ(p.compression_vars.origin, "namelist.input:5:6");
  EXPECT_EQ(p.chunk_max_bytes, 4096);
  EXPECT_EQ(p.io_form, IoForm::NetcdfSerial);
  EXPECT_TRUE(p.fallback_to_serial);
  EXPECT_EQ(p.start_date, o.start_date);
  EXPECT_EQ(p.history_interval_seconds, 900);
  EXPECT_EQ(p.history_begin_seconds, 60);
  EXPECT_EQ(p.iofields_file, "io.txt");
  EXPECT_FALSE(p.ignore_iofields_warning);
  EXPECT_EQ(p.e_we, 23);
  EXPECT_EQ(p.e_sn, 17);
  EXPECT_EQ(p.e_vert, 7);
  EXPECT_EQ(p.gather, GatherMode::Direct);
  EXPECT_EQ(p.reorder, ReorderMode::Datatype);
  EXPECT_EQ(p.writer_ranks, 2);
  EXPECT_EQ(p.max_round_bytes, 12345);
  EXPECT_FALSE(p.shared_memory_exchange);
  EXPECT_EQ(p.serial_chunk_bytes, 777);
  EXPECT_EQ(p.header_reserve_bytes, 99);
  EXPECT_EQ(p.server_frames_in_flight, 4);
  EXPECT_TRUE(p.server_blocking_handoff);
  EXPECT_EQ(p.server_message_bytes, 4096);
  EXPECT_TRUE(p.noclobber);
  EXPECT_FALSE(p.fsync_before_rename);
  EXPECT_FALSE(p.print_timing);
  EXPECT_EQ(p.stats_json, "s.json");
  EXPECT_EQ(p.hints.profile_file, "h.toml");
  EXPECT_EQ(p.hints.profile, "lustre");
  EXPECT_EQ(p.hints.overrides, o.hints.overrides);
  EXPECT_EQ(p.hints.namelist.profile_file, "nl.toml");
  EXPECT_EQ(p.hints.namelist.profile, "gpfs");
  EXPECT_EQ(p.hints.namelist.assignments, "a=1;b=2");
  EXPECT_EQ(p.hints.namelist.report, HintReport::Full);
  EXPECT_EQ(p.hints.report, HintReport::Off);
  // unset stays unset
  StreamDefinition unset;
  EXPECT_FALSE(decode_stream_definition(encode(unset)).options.hints.report.has_value());
}

}  // namespace
}  // namespace nwpio::detail
