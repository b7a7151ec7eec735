// Camera math: world <-> screen (y flips), panning, zooming about the pointer, fitting the world.
#include <gtest/gtest.h>

#include <cmath>

#include "viewer/camera.h"

namespace steerd::viewer {
namespace {

Camera makeCamera() {
  Camera c;
  c.setViewport(800.0f, 600.0f);
  c.setCentre({10.0f, 20.0f});
  c.setScale(4.0f);
  return c;
}

TEST(Camera, CentreMapsToTheMiddleOfTheViewportAndYPointsUpInTheWorld) {
  const Camera c = makeCamera();
  EXPECT_EQ(c.worldToScreen({10.0f, 20.0f}), (Point{400.0f, 300.0f}));
  // 1 m east is 4 px right; 1 m north is 4 px up (screen y shrinks).
  EXPECT_EQ(c.worldToScreen({11.0f, 20.0f}), (Point{404.0f, 300.0f}));
  EXPECT_EQ(c.worldToScreen({10.0f, 21.0f}), (Point{400.0f, 296.0f}));
}

TEST(Camera, ScreenToWorldInvertsWorldToScreen) {
  const Camera c = makeCamera();
  for (const Point w : {Point{0, 0}, Point{-35.5f, 12.25f}, Point{1000.0f, -400.0f}}) {
    const Point back = c.screenToWorld(c.worldToScreen(w));
    EXPECT_NEAR(back.x, w.x, 1e-3f);
    EXPECT_NEAR(back.y, w.y, 1e-3f);
  }
}

TEST(Camera, PanMovesTheWorldWithThePointer) {
  Camera c = makeCamera();
  const Point w{12.0f, 18.0f};
  const Point before = c.worldToScreen(w);
  c.panPixels(30.0f, -10.0f);
  const Point after = c.worldToScreen(w);
  EXPECT_NEAR(after.x - before.x, 30.0f, 1e-3f);
  EXPECT_NEAR(after.y - before.y, -10.0f, 1e-3f);
}

TEST(Camera, ZoomKeepsTheWorldPointUnderThePointerFixed) {
  Camera c = makeCamera();
  const Point pointer{123.0f, 456.0f};
  const Point anchor = c.screenToWorld(pointer);
  c.zoomAt(pointer, 2.5f);
  EXPECT_FLOAT_EQ(c.scale(), 10.0f);
  const Point again = c.worldToScreen(anchor);
  EXPECT_NEAR(again.x, pointer.x, 1e-3f);
  EXPECT_NEAR(again.y, pointer.y, 1e-3f);
  c.zoomAt(pointer, 0.1f);
  EXPECT_FLOAT_EQ(c.scale(), 1.0f);
  const Point third = c.worldToScreen(anchor);
  EXPECT_NEAR(third.x, pointer.x, 1e-3f);
  EXPECT_NEAR(third.y, pointer.y, 1e-3f);
}

TEST(Camera, ZoomIsClampedAndIgnoresNonsenseFactors) {
  Camera c = makeCamera();
  c.zoomAt({0, 0}, 1e9f);
  EXPECT_FLOAT_EQ(c.scale(), Camera::kMaxScale);
  c.zoomAt({0, 0}, 1e-12f);
  EXPECT_FLOAT_EQ(c.scale(), Camera::kMinScale);
  const Point centre = c.centre();
  c.zoomAt({5, 5}, 0.0f);
  c.zoomAt({5, 5}, -2.0f);
  c.zoomAt({5, 5}, std::nanf(""));
  EXPECT_FLOAT_EQ(c.scale(), Camera::kMinScale);
  EXPECT_EQ(c.centre(), centre);
}

TEST(Camera, FitShowsTheWholeWorldCentredWithTheMargin) {
  Camera c;
  c.setViewport(1000.0f, 500.0f);
  const WorldRect world{0.0f, 0.0f, 240.0f, 240.0f};
  c.fit(world, 10.0f);
  // Height limits: (500 - 20) / 240 = 2 px/m.
  EXPECT_FLOAT_EQ(c.scale(), 2.0f);
  EXPECT_EQ(c.centre(), (Point{120.0f, 120.0f}));
  const Point topLeft = c.worldToScreen({world.minX, world.maxY});
  const Point bottomRight = c.worldToScreen({world.maxX, world.minY});
  EXPECT_NEAR(topLeft.y, 10.0f, 1e-3f);
  EXPECT_NEAR(bottomRight.y, 490.0f, 1e-3f);
  EXPECT_NEAR(topLeft.x, 260.0f, 1e-3f);
  EXPECT_NEAR(bottomRight.x, 740.0f, 1e-3f);
  const WorldRect seen = c.visibleWorld();
  EXPECT_LE(seen.minX, world.minX);
  EXPECT_GE(seen.maxX, world.maxX);
  EXPECT_LE(seen.minY, world.minY);
  EXPECT_GE(seen.maxY, world.maxY);
}

TEST(Camera, FitOfAWideWorldIsLimitedByTheWidth) {
  Camera c;
  c.setViewport(400.0f, 400.0f);
  c.fit({-100.0f, -10.0f, 100.0f, 10.0f}, 0.0f);
  EXPECT_FLOAT_EQ(c.scale(), 2.0f);
  EXPECT_EQ(c.centre(), (Point{0.0f, 0.0f}));
}

TEST(Camera, FitInsideKeepsThePanelsClearAndCentresInTheFreePart) {
  Camera c;
  c.setViewport(1000.0f, 500.0f);
  c.fitInside({0.0f, 0.0f, 100.0f, 100.0f}, 0.0f, 300.0f, 0.0f, 100.0f, 0.0f);
  // Free part: x 300..900 (600 wide), 500 high: 5 px/m, the world's centre at x = 600.
  EXPECT_FLOAT_EQ(c.scale(), 5.0f);
  const Point mid = c.worldToScreen({50.0f, 50.0f});
  EXPECT_NEAR(mid.x, 600.0f, 1e-3f);
  EXPECT_NEAR(mid.y, 250.0f, 1e-3f);
  EXPECT_NEAR(c.worldToScreen({0.0f, 50.0f}).x, 350.0f, 1e-3f);
}

TEST(Camera, FitInsideIgnoresInsetsThatLeaveTooLittle) {
  Camera a, b;
  a.setViewport(600.0f, 400.0f);
  b.setViewport(600.0f, 400.0f);
  const WorldRect world{0.0f, 0.0f, 50.0f, 50.0f};
  a.fitInside(world, 8.0f, 250.0f, 0.0f, 250.0f, 0.0f);
  b.fit(world, 8.0f);
  EXPECT_FLOAT_EQ(a.scale(), b.scale());
  EXPECT_EQ(a.centre(), b.centre());
}

TEST(Camera, FitOfADegenerateWorldOnlyMovesTheCentre) {
  Camera c = makeCamera();
  c.fit({5.0f, 5.0f, 5.0f, 5.0f}, 10.0f);
  EXPECT_FLOAT_EQ(c.scale(), 4.0f);
  EXPECT_EQ(c.centre(), (Point{5.0f, 5.0f}));
  c.fit({std::nanf(""), 0.0f, 1.0f, 1.0f}, 10.0f);
  EXPECT_EQ(c.centre(), (Point{5.0f, 5.0f}));
}

TEST(Camera, ViewportNeverCollapsesToZero) {
  Camera c;
  c.setViewport(0.0f, -5.0f);
  EXPECT_GE(c.viewportWidth(), 1.0f);
  EXPECT_GE(c.viewportHeight(), 1.0f);
  c.fit({0, 0, 10, 10}, 0.0f);
  EXPECT_TRUE(std::isfinite(c.scale()));
}

}  // namespace
}  // namespace steerd::viewer
