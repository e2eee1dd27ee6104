# Every policy's run on the golden cases (helper-golden.R) is the stored one,
# bit for bit: points, values, costs, acquisition values, statuses, the
# policies' per-step information and how the runs stopped.
test_that("every policy reproduces its golden trace", {
  skip_on_cran()
  golden <- readRDS(test_path("_golden", "traces.rds"))
  cases <- golden_cases()
  expect_setequal(names(golden), names(cases))
  for (name in names(cases)) {
    now <- golden_runs(cases[name])[[1]]
    expect_identical(now, golden[[name]], label = name)
  }
})

test_that("the golden cases cover every exported policy", {
  exported <- grep("^policy_", getNamespaceExports("costbo"), value = TRUE)
  used <- unique(unlist(lapply(golden_cases(), function(k) {
    all.names(body(k$policy))
  })))
  expect_setequal(intersect(exported, used), exported)
})
