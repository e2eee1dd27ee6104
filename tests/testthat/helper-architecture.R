# The static call graph of R/, file by file (tests/testthat/test-architecture.R
# and bench/call-trace.R use it; it needs codetools, a recommended package,
# and the package's R/ sources, never at run time).
#
# A node is a file of R/. Every top-level assignment `name <- value` of a
# file defines `name` there. The names a definition uses are the global
# names codetools::findGlobals() finds in its value (a function's body and
# those of the functions it defines, without their arguments and local
# variables), restricted to the names R/ defines: a call, a function passed
# as an argument (lapply(x, f)) or a table read (stop_reasons) is a use.
# File A uses file B when a definition of A uses one of B (A != B).
#
# S3: a call of a generic is a use of the generic's file; dispatch is not
# a use (the generic's file does not use the files of its methods), and a
# method (a name `generic.class` of a generic of R/, whose body calls
# UseMethod()) uses its generic's file, as an implementation uses its
# interface. A method named in full (f.cls(x)) is a use of its file.
# Names reached only through strings (get0(), eval() of a recipe) are not
# seen.

# The definitions of the R files in `files`: a data frame of name, file
# and the value's expression (a list column).
arch_definitions <- function(files) {
  out <- list()
  for (f in files) {
    exprs <- parse(f, keep.source = FALSE)
    for (e in exprs) {
      if (is.call(e) && (identical(e[[1L]], quote(`<-`)) ||
                         identical(e[[1L]], quote(`=`))) &&
          is.name(e[[2L]])) {
        out[[length(out) + 1L]] <- list(name = as.character(e[[2L]]),
                                        file = basename(f), value = e[[3L]])
      }
    }
  }
  data.frame(name = vapply(out, `[[`, "", "name"),
             file = vapply(out, `[[`, "", "file"),
             value = I(lapply(out, `[[`, "value")),
             stringsAsFactors = FALSE)
}

# The global names an expression uses (codetools walks it as the body of a
# function without arguments; nothing is evaluated).
arch_globals <- function(expr) {
  f <- function() NULL
  body(f) <- expr
  environment(f) <- baseenv()
  suppressWarnings(codetools::findGlobals(f, merge = TRUE))
}

# The file graph of the definitions `defs` (from arch_definitions()): a
# data frame of the uses (from, to: files; name: the definition of `from`
# that uses one of `to`; used: the name it uses).
arch_graph <- function(defs) {
  file_of <- stats::setNames(defs$file, defs$name)
  generics <- defs$name[vapply(defs$value, function(v) {
    "UseMethod" %in% all.names(v)
  }, NA)]
  rows <- list()
  for (i in seq_len(nrow(defs))) {
    used <- intersect(arch_globals(defs$value[[i]]), names(file_of))
    g <- generics[startsWith(defs$name[i], paste0(generics, "."))]
    used <- union(used, g)
    for (u in used) {
      if (!identical(file_of[[u]], defs$file[i])) {
        rows[[length(rows) + 1L]] <- data.frame(
          from = defs$file[i], to = file_of[[u]], name = defs$name[i],
          used = u, stringsAsFactors = FALSE)
      }
    }
  }
  if (!length(rows)) {
    return(data.frame(from = character(), to = character(),
                      name = character(), used = character()))
  }
  do.call(rbind, rows)
}

# The strongly connected components of a directed graph on `nodes` with
# edges from[i] -> to[i] (Tarjan's algorithm, recursive): a list of
# character vectors, one per component, sorted.
arch_components <- function(nodes, from, to) {
  adj <- split(to, factor(from, levels = nodes))
  index <- stats::setNames(rep(NA_integer_, length(nodes)), nodes)
  low <- index
  on_stack <- stats::setNames(rep(FALSE, length(nodes)), nodes)
  stack <- character()
  counter <- 0L
  out <- list()
  visit <- function(v) {
    counter <<- counter + 1L
    index[[v]] <<- counter
    low[[v]] <<- counter
    stack <<- c(stack, v)
    on_stack[[v]] <<- TRUE
    for (w in unique(adj[[v]])) {
      if (is.na(index[[w]])) {
        visit(w)
        low[[v]] <<- min(low[[v]], low[[w]])
      } else if (on_stack[[w]]) {
        low[[v]] <<- min(low[[v]], index[[w]])
      }
    }
    if (low[[v]] == index[[v]]) {
      k <- match(v, stack)
      comp <- stack[k:length(stack)]
      stack <<- stack[seq_len(k - 1L)]
      on_stack[comp] <<- FALSE
      out[[length(out) + 1L]] <<- sort(comp)
    }
  }
  for (v in nodes) if (is.na(index[[v]])) visit(v)
  out
}

# The cycles of files: the components of more than one file.
arch_cycles <- function(nodes, from, to) {
  comps <- arch_components(nodes, from, to)
  comps[lengths(comps) > 1L]
}

# The R/ sources, from tests/testthat (a source tree) or from R CMD check's
# copy of the package's sources; NULL when neither is there.
arch_source_dir <- function(start = ".") {
  for (d in file.path(start, c("../../R", "../../00_pkg_src/costbo/R"))) {
    if (dir.exists(d) && file.exists(file.path(d, "loop.R"))) {
      return(normalizePath(d))
    }
  }
  NULL
}

# The file graph of R/ in `dir` and its cycles.
arch_check <- function(dir) {
  files <- list.files(dir, "[.]R$", full.names = TRUE)
  defs <- arch_definitions(files)
  g <- arch_graph(defs)
  list(definitions = defs, graph = g,
       cycles = arch_cycles(basename(files), g$from, g$to))
}

# The level of each file of an acyclic graph: 0 for a file that uses none,
# else one more than the highest level among the files it uses (so a file
# uses only files of lower levels). NA for the files of a cycle and those
# above them.
arch_levels <- function(nodes, from, to) {
  level <- stats::setNames(rep(NA_integer_, length(nodes)), nodes)
  uses <- split(to, factor(from, levels = nodes))
  repeat {
    todo <- names(level)[is.na(level)]
    ready <- todo[vapply(todo, function(v) !anyNA(level[uses[[v]]]), NA)]
    if (!length(ready)) break
    for (v in ready) {
      level[[v]] <- if (length(uses[[v]])) max(level[uses[[v]]]) + 1L else 0L
    }
  }
  level
}
