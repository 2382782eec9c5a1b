// The one translation unit of tokenscope_gtest_pch and tokenscope_qt_test_pch
// (tests/CMakeLists.txt): CMake builds their precompiled headers with it, and every
// test program reuses them instead of parsing GoogleTest, Qt and nlohmann/json again.
