# Provenance: which build of costbo made a result.

#' The build of costbo in use
#'
#' Identifies the build of costbo that is running: its version and an MD5
#' hash of the files of its `R/` and `src/` directories (names and contents,
#' the R files without their roxygen documentation lines), computed by the
#' package's `configure` script when it was installed. [bo_benchmark()] stores it with
#' its results, [c()] refuses to join benchmarks of different builds, and the
#' cached studies in `inst/extdata` carry it, so that a result can always be
#' traced to the code that made it and re-run with it.
#'
#' @return A list with `costbo` (the version), `source_hash` (32 hexadecimal
#'   digits, or `NA` when the package was installed without running its
#'   `configure` script) and `r` (the version of R).
#' @family benchmarks
#' @examples
#' costbo_build()
#' @export
costbo_build <- function() {
  f <- system.file("source-hash", package = "costbo")
  hash <- if (nzchar(f)) readLines(f, n = 1L, warn = FALSE) else character()
  list(costbo = as.character(utils::packageVersion("costbo")),
       source_hash = if (length(hash) == 1L &&
                         grepl("^[0-9a-f]{32}$", hash)) hash else NA_character_,
       r = R.version.string)
}

# The source hash of a benchmark (NA for one made before builds were
# recorded).
benchmark_hash <- function(x) {
  h <- x$provenance$source_hash
  if (is.null(h)) NA_character_ else h
}
