#include "app/options.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace steerd {
namespace {

std::optional<int> parse(std::vector<std::string> args, Options& o) {
  args.insert(args.begin(), "steerd");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parseOptions(static_cast<int>(argv.size()), argv.data(), o);
}

TEST(Options, DefaultsAreTheDefaultScenarioAt30Hz) {
  Options o;
  EXPECT_FALSE(parse({}, o).has_value());
  EXPECT_EQ(o.scenario, "default");
  EXPECT_EQ(o.tickRate, 30.0);
  EXPECT_GE(o.threads, 1u);
}

TEST(Options, HeadlessFlagsParse) {
  Options o;
  EXPECT_FALSE(parse({"--headless", "--ticks", "10", "--threads", "2", "--seed", "9", "--scenario", "crowd",
                      "--agents", "500", "--report"},
                     o)
                   .has_value());
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.ticks, 10u);
  EXPECT_EQ(o.threads, 2u);
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(o.agents, 500u);
  EXPECT_TRUE(o.report);
}

TEST(Options, TheDebugStreamIsOffUnlessAskedForByFlagOrEnvironment) {
  Options off;
  EXPECT_FALSE(parse({}, off).has_value());
  EXPECT_FALSE(off.allowDebug);
  Options on;
  EXPECT_FALSE(parse({"--allow-debug"}, on).has_value());
  EXPECT_TRUE(on.allowDebug);
  ::setenv("STEERD_ALLOW_DEBUG", "1", 1);
  Options env;
  EXPECT_FALSE(parse({}, env).has_value());
  ::unsetenv("STEERD_ALLOW_DEBUG");
  EXPECT_TRUE(env.allowDebug);
}

TEST(Options, BadValuesAreRefusedWithAnExitCode) {
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--threads", "x"},
                                                               {"--scenario", "nope"},
                                                               {"--tick-rate", "0"},
                                                               {"--headless"},
                                                               {"--report"},
                                                               {"--nonsense"}}) {
    Options o;
    const auto rc = parse(bad, o);
    ASSERT_TRUE(rc.has_value()) << bad[0];
    EXPECT_NE(*rc, 0) << bad[0];
  }
}

// A config file for --config, removed at the end of the test.
class ConfigFile {
 public:
  explicit ConfigFile(const std::string& text) {
    path_ = ::testing::TempDir() + "steerd_config_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".toml";
    std::ofstream(path_) << text;
  }
  ~ConfigFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(Options, ConfigFileHasTheFlagsKeysAndTheCommandLineWins) {
  ConfigFile file(
      "# steerd.toml\n"
      "tick-rate = 20\n"
      "send-rate = 10\n"
      "max-clients = 64\n"
      "log-format = \"json\"\n"
      "allow-debug = true\n");
  Options o;
  ASSERT_FALSE(parse({"--config", file.path(), "--max-clients", "32"}, o).has_value());
  EXPECT_EQ(o.tickRate, 20.0);
  EXPECT_EQ(o.sendRate, 10.0);
  EXPECT_EQ(o.maxClients, 32u);  // the command line over the file
  EXPECT_EQ(o.logFormat, "json");
  EXPECT_TRUE(o.allowDebug);
}

TEST(Options, ConfigFileErrorsAreUsageErrors) {
  Options o;
  EXPECT_NE(parse({"--config", "/nonexistent/steerd.toml"}, o).value_or(0), 0);
  ConfigFile unknown("tick-rat = 20\n");
  EXPECT_NE(parse({"--config", unknown.path()}, o).value_or(0), 0);  // a misspelt key is not ignored
  ConfigFile bad("tick-rate = 5000\n");
  EXPECT_NE(parse({"--config", bad.path()}, o).value_or(0), 0);  // the flag's own range check
}

// What the config fuzzer drives: a config file's text, parsed as --config FILE parses the file.
TEST(Options, ConfigTextParsesAsTheFileWould) {
  const std::string text = "tick-rate = 20\nsend-rate = 10\nmax-clients = 64\nlog-format = \"json\"\n";
  ConfigFile file(text);
  Options fromFile, fromText;
  ASSERT_FALSE(parse({"--config", file.path()}, fromFile).has_value());
  ASSERT_FALSE(parseConfigText(text, fromText).has_value());
  EXPECT_EQ(fromText.tickRate, 20.0);
  EXPECT_EQ(fromText.sendRate, fromFile.sendRate);
  EXPECT_EQ(fromText.maxClients, fromFile.maxClients);
  EXPECT_EQ(fromText.logFormat, "json");
  // Refused as the file is: a misspelt key, a value out of range, a check after the parse, and the
  // limits on size and section depth that come before the parser.
  for (const std::string& bad :
       {std::string("tick-rat = 20\n"), std::string("tick-rate = 5000\n"),
        std::string("send-rate = 60\ntick-rate = 30\n"),
        "[" + std::string(40, 'a') + std::string(20, '.') + "b]\n", std::string(300 * 1024, '#')}) {
    Options o;
    ::testing::internal::CaptureStderr();
    const auto rc = parseConfigText(bad, o);
    const std::string said = ::testing::internal::GetCapturedStderr();
    ASSERT_TRUE(rc.has_value()) << bad.substr(0, 40);
    EXPECT_NE(*rc, 0) << bad.substr(0, 40);
    EXPECT_FALSE(said.empty()) << bad.substr(0, 40);
  }
}

TEST(Options, LogFormatIsTextOrJson) {
  Options o;
  EXPECT_FALSE(parse({}, o).has_value());
  EXPECT_EQ(o.logFormat, "text");
  EXPECT_FALSE(parse({"--log-format", "json"}, o).has_value());
  EXPECT_EQ(o.logFormat, "json");
  Options bad;
  EXPECT_NE(parse({"--log-format", "xml"}, bad).value_or(0), 0);
}

TEST(Options, VersionExitsZero) {
  Options o;
  ::testing::internal::CaptureStdout();
  const auto code = parse({"--version"}, o);
  const std::string out = ::testing::internal::GetCapturedStdout();
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, 0);
  EXPECT_EQ(out.rfind("steerd ", 0), 0u) << out;
  EXPECT_NE(out.find("compiler: "), std::string::npos) << out;
  EXPECT_NE(out.find("flags: "), std::string::npos) << out;
}

}  // namespace
}  // namespace steerd
