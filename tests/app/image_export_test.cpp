// Image export from the command line as a report script runs it: the real
// tokenscope-cli, its exit status (a crash on exit after writing the picture
// used to end every export with status 139), and the file it wrote, under the
// offscreen platform and under a real X server (Xvfb).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

int shell(const std::string& command) {
    int raw = std::system(command.c_str());
    if (WIFSIGNALED(raw)) return 128 + WTERMSIG(raw);
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

std::string head_of(const fs::path& file, std::size_t n) {
    std::ifstream in(file, std::ios::binary);
    std::string s(n, '\0');
    in.read(s.data(), static_cast<std::streamsize>(n));
    s.resize(static_cast<std::size_t>(in.gcount()));
    return s;
}

std::uint32_t be32(const std::string& s, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
    return v;
}

class ImageExport : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tokenscope_image_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        run_ = (dir_ / "tiny.tokenscope").string();
        ASSERT_EQ(shell(cli() +
                        " run --backend model --preset tiny --batch 2 --prompt 16 "
                        "--tokens 40 --quiet --progress none --out " +
                        run_),
                  0);
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }
    static std::string cli() { return TOKENSCOPE_CLI; }

    // A PNG of exactly the asked size: signature, then IHDR width and height.
    static void expect_png(const fs::path& file, std::uint32_t w, std::uint32_t h) {
        ASSERT_TRUE(fs::exists(file)) << file;
        std::string head = head_of(file, 24);
        ASSERT_EQ(head.size(), 24u);
        EXPECT_EQ(head.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
        EXPECT_EQ(head.substr(12, 4), "IHDR");
        EXPECT_EQ(be32(head, 16), w);
        EXPECT_EQ(be32(head, 20), h);
    }

    static fs::path dir_;
    static std::string run_;
};

fs::path ImageExport::dir_;
std::string ImageExport::run_;

TEST_F(ImageExport, PngSvgPdfExitZeroOffscreen) {
    const fs::path png = dir_ / "off.png", svg = dir_ / "off.svg", pdf = dir_ / "off.pdf";
    const std::string cmd = "env QT_QPA_PLATFORM=offscreen " + cli() + " heatmap " + run_ +
                            " --png " + png.string() + " --svg " + svg.string() + " --pdf " +
                            pdf.string() + " --size 800x500 --csv > /dev/null 2>&1";
    ASSERT_EQ(shell(cmd), 0);
    expect_png(png, 800, 500);
    EXPECT_NE(head_of(svg, 400).find("<svg"), std::string::npos);
    EXPECT_EQ(head_of(pdf, 5), "%PDF-");
}

// Without QT_QPA_PLATFORM at all (a plain shell): the CLI picks offscreen itself.
TEST_F(ImageExport, PngExitZeroWithoutPlatformVariable) {
    const fs::path png = dir_ / "plain.png";
    const std::string cmd = "env -u QT_QPA_PLATFORM -u DISPLAY " + cli() + " heatmap " + run_ +
                            " --png " + png.string() + " --size 640x400 > /dev/null 2>&1";
    ASSERT_EQ(shell(cmd), 0);
    expect_png(png, 640, 400);
}

TEST_F(ImageExport, PngExitZeroUnderXvfb) {
    ASSERT_EQ(shell("command -v xvfb-run > /dev/null"), 0)
        << "xvfb-run (Debian package xvfb) is needed for this test";
    const fs::path png = dir_ / "xvfb.png";
    const std::string cmd = "xvfb-run -a env QT_QPA_PLATFORM=xcb " + cli() + " heatmap " + run_ +
                            " --png " + png.string() + " --size 900x600 > /dev/null 2>&1";
    ASSERT_EQ(shell(cmd), 0);
    expect_png(png, 900, 600);
}

}  // namespace
