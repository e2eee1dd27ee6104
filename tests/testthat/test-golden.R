# Every policy's run on the golden cases (helper-golden.R) is the stored one:
# points, values, costs, acquisition values, statuses, the policies'
# per-step information and how the runs stopped, every discrete outcome
# exactly and every real number to a relative 1e-10 (golden_diff()).
test_that("every policy reproduces its golden trace", {
  skip_on_cran()
  golden <- readRDS(test_path("_golden", "traces.rds"))
  cases <- golden_cases()
  expect_setequal(names(golden), names(cases))
  for (name in names(cases)) {
    now <- golden_runs(cases[name])[[1]]
    expect_null(golden_diff(now, golden[[name]]), label = name)
  }
})

test_that("the golden cases cover every exported policy", {
  exported <- grep("^policy_", getNamespaceExports("costbo"), value = TRUE)
  used <- unique(unlist(lapply(golden_cases(), function(k) {
    all.names(body(k$policy))
  })))
  expect_setequal(intersect(exported, used), exported)
})

test_that("golden traces pin decisions exactly and reals to 1e-10", {
  ref <- list(record = data.frame(x1 = c(0, 0.25, 1), value = c(-3, 2, 1e-3),
                                  status = c("ok", "ok", "failed"),
                                  set = c(NA, 2L, 3L)),
              info = list(list(horizon = 2L, value = 0.5), list()),
              stop_reason = "budget spent", spent = 12.5)
  expect_null(golden_diff(ref, ref))
  moved <- function(f) {
    x <- ref
    f(x)
  }
  # reals within 1e-10 (relative to the value, or to its vector's largest
  # magnitude near 0) pass; beyond it they fail
  expect_null(golden_diff(moved(function(x) {
    x$record$x1[2] <- 0.25 * (1 + 5e-11); x$record$x1[1] <- 5e-11; x
  }), ref))
  expect_match(golden_diff(moved(function(x) {
    x$record$x1[2] <- 0.25 + 3e-10; x
  }), ref), "record\\$x1\\[2\\]")
  expect_match(golden_diff(moved(function(x) {
    x$record$x1[1] <- 2e-10; x
  }), ref), "x1\\[1\\]")
  expect_match(golden_diff(moved(function(x) {
    x$info[[1]]$value <- 0.5 + 1e-9; x
  }), ref), "info\\[\\[1\\]\\]\\$value")
  expect_match(golden_diff(moved(function(x) { x$spent <- 12.6; x }), ref),
               "spent")
  # discrete outcomes must be identical: order, statuses, sets, horizons,
  # NA patterns, stop reasons, lengths
  expect_match(golden_diff(moved(function(x) {
    x$record <- x$record[c(2, 1, 3), ]; rownames(x$record) <- NULL; x
  }), ref), "x1")
  expect_match(golden_diff(moved(function(x) {
    x$record$status[3] <- "ok"; x
  }), ref), "status\\[3\\]")
  expect_match(golden_diff(moved(function(x) {
    x$record$set[1] <- 1L; x
  }), ref), "set\\[1\\]")
  expect_match(golden_diff(moved(function(x) {
    x$info[[1]]$horizon <- 3L; x
  }), ref), "horizon")
  expect_match(golden_diff(moved(function(x) {
    x$record$value[3] <- NA; x
  }), ref), "NA at other places")
  expect_match(golden_diff(moved(function(x) {
    x$stop_reason <- "exhausted"; x
  }), ref), "stop_reason")
  expect_match(golden_diff(moved(function(x) {
    x$record <- x$record[1:2, ]; x
  }), ref), "record")
  expect_match(golden_diff(moved(function(x) {
    x$info[[2]] <- list(horizon = 1L); x
  }), ref), "info\\[\\[2\\]\\]")
})
