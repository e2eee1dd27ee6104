# The static call graph of R/ has no cycle: no file uses, directly or
# through others, a file that uses it (helper-architecture.R builds the
# graph; bench/call-trace.R prints it).

test_that("the cycle finder finds the strongly connected components", {
  # a -> b -> c -> a is a cycle, d hangs below it, e -> f is not a cycle,
  # g <-> h is one of two files
  nodes <- c("a", "b", "c", "d", "e", "f", "g", "h")
  from <- c("a", "b", "c", "c", "e", "g", "h")
  to <- c("b", "c", "a", "d", "f", "h", "g")
  comps <- arch_components(nodes, from, to)
  expect_setequal(lapply(comps, paste, collapse = " "),
                  c("a b c", "d", "e", "f", "g h"))
  expect_identical(arch_cycles(nodes, from, to),
                   list(c("a", "b", "c"), c("g", "h")))
  # without the edges that close them, none
  keep <- !(from == "c" & to == "a") & !(from == "h")
  expect_identical(arch_cycles(nodes, from[keep], to[keep]), list())
  # a chain of 200 nodes (R/ has about 50 files), open and closed
  n <- 200L
  v <- sprintf("n%03d", seq_len(n))
  expect_identical(arch_cycles(v, v[-n], v[-1L]), list())
  expect_identical(arch_cycles(v, c(v[-n], v[n]), c(v[-1L], v[1L])),
                   list(sort(v)))
})

test_that("a helper kept in a file above its user makes a cycle of files", {
  skip_if_not_installed("codetools")
  dir <- tempfile("arch")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  write_r <- function(name, ...) {
    writeLines(c(...), file.path(dir, name))
  }
  # low.R's function calls helper(), kept in high.R, which calls low.R
  write_r("low.R",
          "low_fit <- function(x) helper(x) + 1",
          "low_table <- c(a = 1)")
  write_r("high.R",
          "high_run <- function(x) low_fit(x) * low_table[['a']]",
          "helper <- function(x) sqrt(x)")
  # the generic's file: a call of the generic dispatches to methods of
  # other files without using them; a method uses its generic's file
  write_r("generic.R",
          "price <- function(p, x) UseMethod(\"price\")",
          "price.default <- function(p, x) x",
          "priced <- function(p) price(p, 1)")
  write_r("method.R",
          "price.special <- function(p, x) 2 * x",
          # a local variable or argument named as a function is no use
          "special_ask <- function(helper) { low_fit <- 1; helper + low_fit }")
  r <- arch_check(dir)
  uses <- unique(paste(r$graph$from, r$graph$to))
  expect_setequal(uses, c("high.R low.R", "low.R high.R",
                          "method.R generic.R"))
  expect_identical(r$cycles, list(c("high.R", "low.R")))
  # the helper moved to its user's file: no cycle
  write_r("low.R",
          "low_fit <- function(x) helper(x) + 1",
          "low_table <- c(a = 1)",
          "helper <- function(x) sqrt(x)")
  write_r("high.R", "high_run <- function(x) low_fit(x) * low_table[['a']]")
  r <- arch_check(dir)
  expect_setequal(unique(paste(r$graph$from, r$graph$to)),
                  c("high.R low.R", "method.R generic.R"))
  expect_identical(r$cycles, list())
})

test_that("no file of R/ uses, directly or not, a file that uses it", {
  skip_if_not_installed("codetools")
  dir <- arch_source_dir(test_path("."))
  skip_if(is.null(dir), "the package's R/ sources are not at hand")
  r <- arch_check(dir)
  g <- r$graph
  # the graph is read: the loop uses the step engine, which uses the budget
  expect_gt(nrow(unique(g[c("from", "to")])), 150L)
  expect_true(all(c("loop.R step.R", "step.R budget.R") %in%
                    paste(g$from, g$to)))
  # on failure, the uses between the files of each cycle, file by file
  inside <- function(cy) {
    e <- g[g$from %in% cy & g$to %in% cy, ]
    pairs <- split(e$used, paste(e$from, "->", e$to))
    paste(sprintf("%s: %s", names(pairs),
                  vapply(pairs, function(u) paste(unique(u), collapse = ", "),
                         "")), collapse = "\n")
  }
  expect_identical(r$cycles, list(),
                   info = paste(vapply(r$cycles, inside, ""),
                                collapse = "\n\n"))
})
