# cython: language_level=3
"""The parser of LIBSVM / SVMlight text data: one pass over the bytes, without the GIL.

A line is ``label [index:value ...] [# comment]``. The parser writes straight into
preallocated arrays sized by upper bounds (one row per newline, one entry per colon), so the
hot loop never allocates. A malformed line does not raise inside the loop: the loop stops and
records what went wrong, where, and the Python wrapper turns that into a ``ValueError``.

Numbers are read with the C library's ``strtod`` in the "C" locale (``strtod_l``; correctly
rounded in glibc, musl, macOS and the Windows UCRT): a program that sets a decimal-comma
``LC_NUMERIC`` (``locale.setlocale``) read ``0.5`` as 0 and refused the file. Hexadecimal
numbers (``0x10``) and ``nan(...)`` are refused, as scikit-learn's loader refuses them.
"""

import numpy as np

from libc.math cimport isfinite
from libc.string cimport memchr
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE

__all__ = ["ERROR_MESSAGES", "parse_svmlight"]

cdef enum ParseStatus:
    PARSED = 0
    MISSING_LABEL = 1
    BAD_LABEL = 2
    BAD_FEATURE = 3
    BAD_INDEX = 4
    BAD_VALUE = 5
    NOT_ASCENDING = 6
    BAD_QID = 7

# What each status means, for the wrapper's message; the token is inserted with str.format.
ERROR_MESSAGES = {
    MISSING_LABEL: "missing label (the line starts with the feature '{token}')",
    BAD_LABEL: "could not read the label '{token}' as a number",
    BAD_FEATURE: "malformed feature '{token}' (expected index:value)",
    BAD_INDEX: "malformed feature index in '{token}' (expected a non-negative integer)",
    BAD_VALUE: "could not read the value of feature '{token}' as a number",
    NOT_ASCENDING: "feature indices must be ascending (got {current} after {previous})",
    BAD_QID: "malformed query id '{token}' (expected qid:integer)",
}

# Indices beyond this are rejected as malformed rather than overflowing int64.
cdef long long MAX_INDEX = 1LL << 53
cdef char DIGIT_ZERO = b'0'


cdef extern from *:
    """
    #include <locale.h>
    #include <stdlib.h>
    #if defined(_WIN32)
    typedef _locale_t svmx_numeric_locale;
    static svmx_numeric_locale svmx_c_numeric_locale(void) {
        return _create_locale(LC_NUMERIC, "C");
    }
    static void svmx_free_numeric_locale(svmx_numeric_locale locale) {
        if (locale) _free_locale(locale);
    }
    static double svmx_strtod_c(const char* text, char** end, svmx_numeric_locale locale) {
        return _strtod_l(text, end, locale);
    }
    #else
    #if defined(__APPLE__)
    #include <xlocale.h>
    #endif
    typedef locale_t svmx_numeric_locale;
    static svmx_numeric_locale svmx_c_numeric_locale(void) {
        return newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    }
    static void svmx_free_numeric_locale(svmx_numeric_locale locale) {
        if (locale) freelocale(locale);
    }
    static double svmx_strtod_c(const char* text, char** end, svmx_numeric_locale locale) {
        return strtod_l(text, end, locale);
    }
    #endif
    """
    ctypedef void* svmx_numeric_locale
    svmx_numeric_locale c_numeric_locale "svmx_c_numeric_locale"()
    void free_numeric_locale "svmx_free_numeric_locale"(svmx_numeric_locale locale)
    double strtod_c "svmx_strtod_c"(const char* text, char** end,
                                    svmx_numeric_locale locale) noexcept nogil


cdef struct ParseState:
    svmx_numeric_locale numeric  # the "C" locale the numbers are read in
    Py_ssize_t line          # 1-based number of the line being read
    Py_ssize_t row           # rows stored so far
    Py_ssize_t nnz           # entries stored so far
    long long min_index
    long long max_index
    Py_ssize_t first_zero_line   # first line using index 0 (0: none)
    Py_ssize_t first_nonfinite_line  # first line with an infinite or NaN number (0: none)
    Py_ssize_t nonfinite_start   # its byte range
    Py_ssize_t nonfinite_stop
    int status
    Py_ssize_t token_start   # byte range of the offending token
    Py_ssize_t token_stop
    long long previous       # the indices of a non-ascending pair
    long long current


cdef inline bint is_blank(char c) noexcept nogil:
    # '\n' is not blank here: lines are cut before tokens are scanned.
    return c == b' ' or c == b'\t' or c == b'\r' or c == b'\v' or c == b'\f'


cdef inline Py_ssize_t skip_blanks(const char* text, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    while i < end and is_blank(text[i]):
        i += 1
    return i


cdef inline Py_ssize_t token_end(const char* text, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    while i < end and not is_blank(text[i]) and text[i] != b'#':
        i += 1
    return i


cdef inline bint read_number(const char* text, Py_ssize_t start, Py_ssize_t stop,
                             double* value, svmx_numeric_locale numeric) noexcept nogil:
    """Parse text[start:stop] as a whole as a decimal float (inf and nan too, not hex or
    nan(...)); False when anything is left over."""
    cdef char* parsed_end
    cdef Py_ssize_t k
    if start >= stop:
        return False
    for k in range(start, stop):
        if text[k] == b'x' or text[k] == b'X' or text[k] == b'(':
            return False
    value[0] = strtod_c(text + start, &parsed_end, numeric)
    # strtod stops at the blank, '#', ':' or newline that ends the token, never beyond it.
    return parsed_end == text + stop


cdef inline bint read_index(const char* text, Py_ssize_t start, Py_ssize_t stop,
                            long long* index) noexcept nogil:
    """Parse text[start:stop] as decimal digits only."""
    cdef long long result = 0
    cdef Py_ssize_t i
    if start >= stop:
        return False
    for i in range(start, stop):
        if text[i] < b'0' or text[i] > b'9':
            return False
        result = result * 10 + (text[i] - DIGIT_ZERO)
        if result > MAX_INDEX:
            return False
    index[0] = result
    return True


cdef inline void fail(ParseState* state, int status, Py_ssize_t start,
                      Py_ssize_t stop) noexcept nogil:
    state.status = status
    state.token_start = start
    state.token_stop = stop


cdef inline void note_nonfinite(ParseState* state, Py_ssize_t start,
                                Py_ssize_t stop) noexcept nogil:
    """Remember the first token whose number is infinite or NaN (LIBSVM reads them)."""
    if state.first_nonfinite_line == 0:
        state.first_nonfinite_line = state.line
        state.nonfinite_start = start
        state.nonfinite_stop = stop


cdef bint parse_features(const char* text, Py_ssize_t i, Py_ssize_t end, ParseState* state,
                         double[::1] data, long long[::1] indices) noexcept nogil:
    """Read the ``index:value`` tokens of one line from position i; False on an error."""
    cdef Py_ssize_t stop, colon
    cdef const char* colon_pointer
    cdef long long index, previous = -1
    cdef double value
    while True:
        i = skip_blanks(text, i, end)
        if i >= end or text[i] == b'#':
            return True
        stop = token_end(text, i, end)
        colon_pointer = <const char*> memchr(text + i, b':', stop - i)
        if colon_pointer == NULL:
            fail(state, BAD_FEATURE, i, stop)
            return False
        colon = colon_pointer - text
        if colon - i == 3 and text[i] == b'q' and text[i + 1] == b'i' and text[i + 2] == b'd':
            # Query ids (SVMlight's ranking data) carry no feature: checked, then skipped.
            if not read_index(text, colon + 1, stop, &index):
                fail(state, BAD_QID, i, stop)
                return False
            i = stop
            continue
        if not read_index(text, i, colon, &index):
            fail(state, BAD_INDEX, i, stop)
            return False
        if not read_number(text, colon + 1, stop, &value, state.numeric):
            fail(state, BAD_VALUE, i, stop)
            return False
        if index <= previous:
            fail(state, NOT_ASCENDING, i, stop)
            state.previous = previous
            state.current = index
            return False
        if index == 0 and state.first_zero_line == 0:
            state.first_zero_line = state.line
        if not isfinite(value):
            note_nonfinite(state, i, stop)
        if index < state.min_index:
            state.min_index = index
        if index > state.max_index:
            state.max_index = index
        data[state.nnz] = value
        indices[state.nnz] = index
        state.nnz += 1
        previous = index
        i = stop


cdef void parse_lines(const char* text, Py_ssize_t size, ParseState* state, double[::1] labels,
                      double[::1] data, long long[::1] indices,
                      long long[::1] indptr) noexcept nogil:
    cdef Py_ssize_t position = 0, end, i, stop
    cdef const char* newline
    cdef double label
    while position < size:
        state.line += 1
        newline = <const char*> memchr(text + position, b'\n', size - position)
        end = size if newline == NULL else newline - text
        i = skip_blanks(text, position, end)
        position = end + 1
        if i >= end or text[i] == b'#':
            continue  # a blank or comment-only line
        stop = token_end(text, i, end)
        if memchr(text + i, b':', stop - i) != NULL:
            fail(state, MISSING_LABEL, i, stop)
            return
        if not read_number(text, i, stop, &label, state.numeric):
            fail(state, BAD_LABEL, i, stop)
            return
        if not isfinite(label):
            note_nonfinite(state, i, stop)
        if not parse_features(text, stop, end, state, data, indices):
            return
        labels[state.row] = label
        state.row += 1
        indptr[state.row] = state.nnz


def parse_svmlight(bytes content):
    """Parse LIBSVM-format bytes into raw CSR arrays.

    Parameters
    ----------
    content : bytes
        The whole file. ``bytes`` objects end in a NUL byte, which ``strtod`` relies on; the
        wrapper rejects content that contains NUL bytes before calling this.

    Returns
    -------
    dict
        ``labels``, ``data``, ``indices`` (int64, as written in the file), ``indptr``,
        ``min_index``, ``max_index`` (-1 without any feature), ``first_zero_line``,
        ``first_nonfinite`` ((line, token) of the first infinite or NaN label or value, or
        None) and, for malformed input, ``error``: (status, line, token, previous,
        current), else None.

    Examples
    --------
    >>> parsed = parse_svmlight(b"+1 1:0.5 3:2 # a comment\\n-1\\n")
    >>> parsed["labels"].tolist(), parsed["indices"].tolist(), parsed["indptr"].tolist()
    ([1.0, -1.0], [1, 3], [0, 2, 2])
    """
    cdef const char* text = PyBytes_AS_STRING(content)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(content)
    cdef Py_ssize_t max_rows = content.count(b"\n") + 1
    cdef Py_ssize_t max_entries = content.count(b":")
    labels = np.empty(max_rows, dtype=np.float64)
    data = np.empty(max_entries, dtype=np.float64)
    indices = np.empty(max_entries, dtype=np.int64)
    indptr = np.zeros(max_rows + 1, dtype=np.int64)
    cdef double[::1] labels_view = labels
    cdef double[::1] data_view = data
    cdef long long[::1] indices_view = indices
    cdef long long[::1] indptr_view = indptr
    cdef ParseState state
    state.line = 0
    state.row = 0
    state.nnz = 0
    state.min_index = MAX_INDEX
    state.max_index = -1
    state.first_zero_line = 0
    state.first_nonfinite_line = state.nonfinite_start = state.nonfinite_stop = 0
    state.status = PARSED
    state.token_start = state.token_stop = 0
    state.previous = state.current = 0
    state.numeric = c_numeric_locale()
    if state.numeric == NULL:
        raise MemoryError("could not create the C locale to read numbers in")
    try:
        with nogil:
            parse_lines(text, size, &state, labels_view, data_view, indices_view,
                        indptr_view)
    finally:
        free_numeric_locale(state.numeric)
    first_nonfinite = None
    if state.first_nonfinite_line:
        first_nonfinite = (state.first_nonfinite_line, content[
            state.nonfinite_start:state.nonfinite_stop].decode("utf-8", "backslashreplace"))
    error = None
    if state.status != PARSED:
        token = content[state.token_start:state.token_stop].decode("utf-8", "backslashreplace")
        error = (state.status, state.line, token, state.previous, state.current)
    return {
        "labels": labels[:state.row],
        "data": data[:state.nnz],
        "indices": indices[:state.nnz],
        "indptr": indptr[:state.row + 1],
        "min_index": state.min_index if state.nnz else -1,
        "max_index": state.max_index,
        "first_zero_line": state.first_zero_line,
        "first_nonfinite": first_nonfinite,
        "error": error,
    }
