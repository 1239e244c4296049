/* Optional C speedups of the replay's output (planner/cluster/output.py).
 *
 * Each function returns exactly what its pure-Python counterpart returns (the
 * Python code stays the reference and the fallback when this module is not
 * built), the way the standard library's json module uses _json.
 *
 *   format_rows(fmt, columns) -> bytes
 *       "".join(fmt % row for row in zip(*columns, strict=True)) in UTF-8, for a
 *       format made of %s, %d, %.6f and %% only.
 *   spans_texts(alloc) -> list[str] | None
 *       planner.cluster.output.span_text of every item; None when an item is not
 *       a tuple of (int, int) tuples (the caller then uses Python).
 *   job_columns(submit, cpus, requested, work, start, finish) -> tuple | None
 *       (duration, wait, response, busy, slowdown, bounded_slowdown, killed) as
 *       planner.cluster.records.Columns.of computes them; None when a value is
 *       not an exact int below 2**53 in magnitude (Python then computes them).
 *   allocate(bounds, cpus, machine, events) -> list[Spans] | None
 *       planner.cluster.cluster.allocate with each machine's CPUs (lo, hi) given;
 *       None for any input it would not replay exactly as Python (the caller
 *       then runs Python, which raises its own errors).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

/* ---- a growable byte buffer ------------------------------------------- */

typedef struct {
    char *data;
    Py_ssize_t len, cap;
} Buf;

static int
buf_reserve(Buf *b, Py_ssize_t extra)
{
    if (b->len + extra <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra)
        cap *= 2;
    char *data = PyMem_Realloc(b->data, (size_t)cap);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

static int
buf_put(Buf *b, const char *s, Py_ssize_t n)
{
    if (buf_reserve(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

/* Decimal text of v (as int.__str__ writes it); returns its length. Two digits
 * at a time from a table, the way CPython's own long formatting avoids a
 * division per digit. */
static const char DIGITS2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static int
ll_text(long long v, char *out)
{
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    int n = 1;
    for (unsigned long long t = u; t >= 10; t /= 10)
        n++;
    int k = (v < 0) + n;
    char *p = out + k;
    if (v < 0)
        out[0] = '-';
    while (u >= 100) {
        unsigned r = (unsigned)(u % 100);
        u /= 100;
        p -= 2;
        p[0] = DIGITS2[2 * r];
        p[1] = DIGITS2[2 * r + 1];
    }
    if (u >= 10) {
        p[-2] = DIGITS2[2 * u];
        p[-1] = DIGITS2[2 * u + 1];
    } else {
        p[-1] = (char)('0' + u);
    }
    return k;
}

static int
buf_ll(Buf *b, long long v)
{
    if (buf_reserve(b, 24) < 0)
        return -1;
    b->len += ll_text(v, b->data + b->len);
    return 0;
}

/* "%.6f" % x, as Python writes it (correctly rounded, half to even on the exact
 * binary value). The fast route scales by 10^6 in one correctly rounded product y
 * (|y - x*10^6| <= |y|*2^-53) and keeps the nearest integer of y only when y is
 * farther than twice that error from a half: then it is the nearest integer of
 * x*10^6 too. Anything else (a near-tie, |y| >= 2^50, inf, nan) goes to
 * PyOS_double_to_string, as Python's own formatting does. */
static int
buf_f6(Buf *b, double x)
{
    double y = x * 1e6, ay = fabs(y);
    if (ay < 1125899906842624.0) { /* 2^50 */
        double r = nearbyint(y);
        if (fabs(y - r) <= 0.5 - ay * 2.220446049250313e-16) { /* 0.5 - 2*|y|*2^-53 */
            unsigned long long u = (unsigned long long)fabs(r);
            char text[40];
            int k = 0;
            if (signbit(x))
                text[k++] = '-';
            k += ll_text((long long)(u / 1000000), text + k);
            unsigned frac = (unsigned)(u % 1000000);
            text[k++] = '.';
            for (int i = 5; i >= 0; i--) {
                text[k + i] = (char)('0' + frac % 10);
                frac /= 10;
            }
            return buf_put(b, text, k + 6);
        }
    }
    char *text = PyOS_double_to_string(x, 'f', 6, 0, NULL);
    if (text == NULL)
        return -1;
    int rc = buf_put(b, text, (Py_ssize_t)strlen(text));
    PyMem_Free(text);
    return rc;
}

static int
buf_str(Buf *b, PyObject *s)
{
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    return u == NULL ? -1 : buf_put(b, u, n);
}

/* One value formatted by Python's own str % (the rare cases: not an exact
 * int, float or str, or an int beyond long long). */
static int
buf_python(Buf *b, PyObject *piece, PyObject *value)
{
    PyObject *args = PyTuple_Pack(1, value);
    if (args == NULL)
        return -1;
    PyObject *text = PyUnicode_Format(piece, args);
    Py_DECREF(args);
    if (text == NULL)
        return -1;
    int rc = buf_str(b, text);
    Py_DECREF(text);
    return rc;
}

/* ---- format_rows ------------------------------------------------------- */

enum { CONV_S, CONV_D, CONV_F6 };

static PyObject *
format_rows(PyObject *self, PyObject *args)
{
    PyObject *fmt, *columns;
    if (!PyArg_ParseTuple(args, "UO:format_rows", &fmt, &columns))
        return NULL;
    Py_ssize_t flen;
    const char *f = PyUnicode_AsUTF8AndSize(fmt, &flen);
    if (f == NULL)
        return NULL;

    /* literal pieces (UTF-8, %% undone) between the conversions */
    Py_ssize_t nconv = 0;
    for (Py_ssize_t i = 0; i < flen; i++)
        if (f[i] == '%') {
            if (i + 1 < flen && f[i + 1] == '%') {
                i++;
                continue;
            }
            nconv++;
        }
    int *conv = PyMem_Calloc((size_t)nconv + 1, sizeof(int));
    Buf lit = {0};
    Py_ssize_t *lit_end = PyMem_Calloc((size_t)nconv + 1, sizeof(Py_ssize_t));
    PyObject *seq = NULL, **cols = NULL, *result = NULL;
    PyObject *piece_s = NULL, *piece_d = NULL, *piece_f = NULL;
    Buf out = {0};
    if (conv == NULL || lit_end == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < flen; i++) {
        if (f[i] != '%') {
            if (buf_put(&lit, f + i, 1) < 0)
                goto done;
        } else if (i + 1 < flen && f[i + 1] == '%') {
            if (buf_put(&lit, "%", 1) < 0)
                goto done;
            i++;
        } else {
            if (i + 1 < flen && f[i + 1] == 's') {
                conv[k] = CONV_S;
                i += 1;
            } else if (i + 1 < flen && f[i + 1] == 'd') {
                conv[k] = CONV_D;
                i += 1;
            } else if (i + 3 < flen && memcmp(f + i + 1, ".6f", 3) == 0) {
                conv[k] = CONV_F6;
                i += 3;
            } else {
                PyErr_SetString(PyExc_ValueError,
                                "format_rows: only %s, %d, %.6f and %% are supported");
                goto done;
            }
            lit_end[k++] = lit.len;
        }
    }
    lit_end[nconv] = lit.len;

    seq = PySequence_Fast(columns, "format_rows: columns must be a sequence");
    if (seq == NULL)
        goto done;
    Py_ssize_t ncols = PySequence_Fast_GET_SIZE(seq);
    if (ncols != nconv) {
        PyErr_Format(PyExc_TypeError, "format_rows: %zd conversions but %zd columns",
                     nconv, ncols);
        goto done;
    }
    cols = PyMem_Calloc((size_t)ncols + 1, sizeof(PyObject *));
    if (cols == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t rows = -1;
    for (Py_ssize_t c = 0; c < ncols; c++) {
        cols[c] = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, c),
                                  "format_rows: each column must be a sequence");
        if (cols[c] == NULL)
            goto done;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(cols[c]);
        if (rows >= 0 && n != rows) {
            PyErr_SetString(PyExc_ValueError, "format_rows: columns of different lengths");
            goto done;
        }
        rows = n;
    }
    if (rows < 0)
        rows = 0;
    piece_s = PyUnicode_FromString("%s");
    piece_d = PyUnicode_FromString("%d");
    piece_f = PyUnicode_FromString("%.6f");
    if (piece_s == NULL || piece_d == NULL || piece_f == NULL)
        goto done;

    for (Py_ssize_t r = 0; r < rows; r++) {
        Py_ssize_t from = 0;
        for (Py_ssize_t c = 0; c < ncols; c++) {
            if (lit_end[c] > from && buf_put(&out, lit.data + from, lit_end[c] - from) < 0)
                goto done;
            from = lit_end[c];
            PyObject *v = PySequence_Fast_ITEMS(cols[c])[r];
            int rc;
            switch (conv[c]) {
            case CONV_S:
                rc = PyUnicode_CheckExact(v) ? buf_str(&out, v) : buf_python(&out, piece_s, v);
                break;
            case CONV_D:
                if (PyLong_CheckExact(v) || PyBool_Check(v)) {
                    int overflow;
                    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
                    if (x == -1 && PyErr_Occurred())
                        goto done;
                    rc = overflow ? buf_python(&out, piece_d, v) : buf_ll(&out, x);
                } else {
                    rc = buf_python(&out, piece_d, v);
                }
                break;
            default:
                if (PyFloat_CheckExact(v)) {
                    rc = buf_f6(&out, PyFloat_AS_DOUBLE(v));
                } else {
                    rc = buf_python(&out, piece_f, v);
                }
            }
            if (rc < 0)
                goto done;
        }
        if (lit_end[ncols] > from && buf_put(&out, lit.data + from, lit_end[ncols] - from) < 0)
            goto done;
    }
    result = PyBytes_FromStringAndSize(out.data ? out.data : "", out.len);

done:
    if (cols != NULL) {
        for (Py_ssize_t c = 0; cols[c] != NULL; c++)
            Py_DECREF(cols[c]);
        PyMem_Free(cols);
    }
    Py_XDECREF(seq);
    Py_XDECREF(piece_s);
    Py_XDECREF(piece_d);
    Py_XDECREF(piece_f);
    PyMem_Free(conv);
    PyMem_Free(lit_end);
    PyMem_Free(lit.data);
    PyMem_Free(out.data);
    return result;
}

/* ---- spans_texts ------------------------------------------------------- */

static PyObject *
spans_texts(PyObject *self, PyObject *alloc)
{
    PyObject *seq = PySequence_Fast(alloc, "spans_texts: alloc must be a sequence");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *texts = PyList_New(n);
    PyObject *last = NULL, *last_text = NULL; /* consecutive equal allocations share a text */
    Buf b = {0};
    if (texts == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *spans = PySequence_Fast_ITEMS(seq)[i];
        if (spans == last) {
            Py_INCREF(last_text);
            PyList_SET_ITEM(texts, i, last_text);
            continue;
        }
        if (!PyTuple_CheckExact(spans))
            goto fallback;
        b.len = 0;
        Py_ssize_t m = PyTuple_GET_SIZE(spans);
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *span = PyTuple_GET_ITEM(spans, j);
            if (!PyTuple_CheckExact(span) || PyTuple_GET_SIZE(span) != 2)
                goto fallback;
            PyObject *lo = PyTuple_GET_ITEM(span, 0), *hi = PyTuple_GET_ITEM(span, 1);
            if (!PyLong_CheckExact(lo) || !PyLong_CheckExact(hi))
                goto fallback;
            int o1, o2;
            long long a = PyLong_AsLongLongAndOverflow(lo, &o1);
            long long z = PyLong_AsLongLongAndOverflow(hi, &o2);
            if (o1 || o2)
                goto fallback;
            if ((j && buf_put(&b, " ", 1) < 0) || buf_ll(&b, a) < 0)
                goto fail;
            if (a != z && (buf_put(&b, "-", 1) < 0 || buf_ll(&b, z) < 0))
                goto fail;
        }
        PyObject *text = PyUnicode_DecodeASCII(b.data ? b.data : "", b.len, NULL);
        if (text == NULL)
            goto fail;
        PyList_SET_ITEM(texts, i, text);
        last = spans;
        last_text = text;
    }
    Py_DECREF(seq);
    PyMem_Free(b.data);
    return texts;
fallback:
    Py_DECREF(seq);
    Py_DECREF(texts);
    PyMem_Free(b.data);
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    Py_XDECREF(texts);
    PyMem_Free(b.data);
    return NULL;
}

/* ---- allocate ---------------------------------------------------------- */

typedef struct {
    long long lo, hi;
} Range;

typedef struct {
    Range *r;
    Py_ssize_t n, cap;
} Free;

static int
free_insert(Free *f, Py_ssize_t i, long long lo, long long hi)
{
    if (f->n == f->cap) {
        Py_ssize_t cap = f->cap ? 2 * f->cap : 8;
        Range *r = PyMem_Realloc(f->r, (size_t)cap * sizeof(Range));
        if (r == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        f->r = r;
        f->cap = cap;
    }
    memmove(f->r + i + 1, f->r + i, (size_t)(f->n - i) * sizeof(Range));
    f->r[i].lo = lo;
    f->r[i].hi = hi;
    f->n++;
    return 0;
}

static void
free_delete(Free *f, Py_ssize_t i, Py_ssize_t count)
{
    memmove(f->r + i, f->r + i + count, (size_t)(f->n - i - count) * sizeof(Range));
    f->n -= count;
}

static PyObject *
range_tuple(long long lo, long long hi)
{
    PyObject *a = PyLong_FromLongLong(lo), *b = PyLong_FromLongLong(hi), *t = NULL;
    if (a != NULL && b != NULL)
        t = PyTuple_Pack(2, a, b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return t;
}

/* An exact int as long long; 1 when it is not one (the caller leaves the case to Python). */
static int
as_ll(PyObject *v, long long *x)
{
    int overflow;
    if (!PyLong_CheckExact(v))
        return 1;
    *x = PyLong_AsLongLongAndOverflow(v, &overflow);
    return overflow != 0;
}

static PyObject *
allocate(PyObject *self, PyObject *args)
{
    PyObject *bounds_obj, *cpus_obj, *machine_obj, *events_obj;
    if (!PyArg_ParseTuple(args, "OOOO:allocate", &bounds_obj, &cpus_obj, &machine_obj,
                          &events_obj))
        return NULL;
    if (!PyList_CheckExact(bounds_obj) || !PyList_CheckExact(cpus_obj) ||
        !PyList_CheckExact(machine_obj) || !PyList_CheckExact(events_obj))
        Py_RETURN_NONE;
    Py_ssize_t nm = PyList_GET_SIZE(bounds_obj), n = PyList_GET_SIZE(cpus_obj);
    Free *free = PyMem_Calloc((size_t)nm + 1, sizeof(Free));
    PyObject *alloc = NULL, *result = NULL, *empty = PyTuple_New(0);
    if (free == NULL || empty == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t m = 0; m < nm; m++) {
        PyObject *b = PyList_GET_ITEM(bounds_obj, m);
        long long lo, hi;
        if (!PyTuple_CheckExact(b) || PyTuple_GET_SIZE(b) != 2 ||
            as_ll(PyTuple_GET_ITEM(b, 0), &lo) || as_ll(PyTuple_GET_ITEM(b, 1), &hi))
            goto fallback;
        if (free_insert(&free[m], 0, lo, hi) < 0)
            goto done;
    }
    if (PyList_GET_SIZE(machine_obj) != n)
        goto fallback;
    alloc = PyList_New(n);
    if (alloc == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < n; j++) {
        Py_INCREF(empty);
        PyList_SET_ITEM(alloc, j, empty);
    }
    Py_ssize_t ne = PyList_GET_SIZE(events_obj);
    Range taken[64];
    for (Py_ssize_t t = 0; t < ne; t++) {
        long long e, m, k;
        if (as_ll(PyList_GET_ITEM(events_obj, t), &e))
            goto fallback;
        long long job = e >= 0 ? e : ~e;
        if (job >= n || as_ll(PyList_GET_ITEM(machine_obj, job), &m) || m < 0 || m >= nm)
            goto fallback;
        Free *fr = &free[m];
        if (e >= 0) { /* take the k lowest-numbered free CPUs */
            if (as_ll(PyList_GET_ITEM(cpus_obj, job), &k) || fr->n == 0)
                goto fallback;
            Py_ssize_t nt = 0, i = 0;
            long long lo = fr->r[0].lo, hi = fr->r[0].hi;
            if (hi - lo >= k) {
                if (hi - lo == k - 1)
                    free_delete(fr, 0, 1);
                else
                    fr->r[0].lo = lo + k;
                taken[nt].lo = lo;
                taken[nt++].hi = lo + k - 1;
            } else {
                while (k > 0) {
                    if (i >= fr->n || nt == 64)
                        goto fallback;
                    lo = fr->r[i].lo;
                    hi = fr->r[i].hi;
                    long long size = hi - lo + 1;
                    if (size > k) {
                        taken[nt].lo = lo;
                        taken[nt++].hi = lo + k - 1;
                        fr->r[i].lo = lo + k;
                        break;
                    }
                    taken[nt].lo = lo;
                    taken[nt++].hi = hi;
                    k -= size;
                    i++;
                }
                free_delete(fr, 0, i);
            }
            PyObject *spans = PyTuple_New(nt);
            if (spans == NULL)
                goto done;
            for (Py_ssize_t x = 0; x < nt; x++) {
                PyObject *r = range_tuple(taken[x].lo, taken[x].hi);
                if (r == NULL) {
                    Py_DECREF(spans);
                    goto done;
                }
                PyTuple_SET_ITEM(spans, x, r);
            }
            PyObject *old = PyList_GET_ITEM(alloc, job);
            PyList_SET_ITEM(alloc, job, spans);
            Py_DECREF(old);
            continue;
        }
        /* an end: give the job's ranges back, merging adjacent ones */
        PyObject *spans = PyList_GET_ITEM(alloc, job);
        Py_ssize_t ns = PyTuple_GET_SIZE(spans);
        if (ns == 0 && fr->n > 0)
            goto fallback; /* Python: an end of a job that never started */
        for (Py_ssize_t x = 0; x < ns; x++) {
            long long lo, hi;
            as_ll(PyTuple_GET_ITEM(PyTuple_GET_ITEM(spans, x), 0), &lo);
            as_ll(PyTuple_GET_ITEM(PyTuple_GET_ITEM(spans, x), 1), &hi);
            Py_ssize_t a = 0, z = fr->n; /* bisect_left(free, (lo,)) */
            while (a < z) {
                Py_ssize_t mid = (a + z) / 2;
                if (fr->r[mid].lo < lo)
                    a = mid + 1;
                else
                    z = mid;
            }
            Py_ssize_t i = a;
            if (i && fr->r[i - 1].hi + 1 == lo) {
                i--;
                if (i + 1 < fr->n && fr->r[i + 1].lo == hi + 1) {
                    fr->r[i].hi = fr->r[i + 1].hi;
                    free_delete(fr, i + 1, 1);
                } else {
                    fr->r[i].hi = hi;
                }
            } else if (i < fr->n && fr->r[i].lo == hi + 1) {
                fr->r[i].lo = lo;
            } else if (free_insert(fr, i, lo, hi) < 0) {
                goto done;
            }
        }
    }
    result = alloc;
    alloc = NULL;
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    if (free != NULL) {
        for (Py_ssize_t m = 0; m < nm; m++)
            PyMem_Free(free[m].r);
        PyMem_Free(free);
    }
    Py_XDECREF(alloc);
    Py_XDECREF(empty);
    return result;
}

/* ---- job_columns ------------------------------------------------------- */

#define EXACT_LIMIT 9007199254740992LL /* 2**53: every int below it is a double exactly */

static PyObject *
job_columns(PyObject *self, PyObject *args)
{
    PyObject *in[6]; /* submit, cpus, requested, work, start, finish */
    if (!PyArg_ParseTuple(args, "OOOOOO:job_columns", &in[0], &in[1], &in[2], &in[3], &in[4],
                          &in[5]))
        return NULL;
    Py_ssize_t n = -1;
    for (int c = 0; c < 6; c++) {
        if (!PyList_CheckExact(in[c]) || (n >= 0 && PyList_GET_SIZE(in[c]) != n))
            Py_RETURN_NONE;
        n = PyList_GET_SIZE(in[c]);
    }
    PyObject *out[7] = {NULL}; /* duration, wait, response, busy, slowdown, bounded, killed */
    PyObject *result = NULL;
    for (int c = 0; c < 7; c++)
        if ((out[c] = PyList_New(n)) == NULL)
            goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v[6];
        for (int c = 0; c < 6; c++)
            if (as_ll(PyList_GET_ITEM(in[c], i), &v[c]) || v[c] >= EXACT_LIMIT ||
                v[c] <= -EXACT_LIMIT)
                goto fallback;
        long long duration = v[5] - v[4], wait = v[4] - v[0], response = v[5] - v[0], busy;
        if (__builtin_mul_overflow(v[1], duration, &busy) || response >= EXACT_LIMIT ||
            response <= -EXACT_LIMIT)
            goto fallback;
        double floated = (double)response;
        double q = floated / (double)(duration > 10 ? duration : 10);
        PyObject *items[7] = {
            PyLong_FromLongLong(duration), PyLong_FromLongLong(wait),
            PyLong_FromLongLong(response), PyLong_FromLongLong(busy),
            PyFloat_FromDouble(floated / (double)(duration ? duration : 1)),
            PyFloat_FromDouble(q > 1.0 ? q : 1.0), PyBool_FromLong(v[3] > v[2]),
        };
        for (int c = 0; c < 7; c++) {
            if (items[c] == NULL) {
                for (int d = c; d < 7; d++)
                    Py_XDECREF(items[d]);
                goto done;
            }
            PyList_SET_ITEM(out[c], i, items[c]);
        }
    }
    result = PyTuple_New(7);
    if (result == NULL)
        goto done;
    for (int c = 0; c < 7; c++) {
        PyTuple_SET_ITEM(result, c, out[c]);
        out[c] = NULL;
    }
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    for (int c = 0; c < 7; c++)
        Py_XDECREF(out[c]);
    return result;
}

static PyMethodDef methods[] = {
    {"format_rows", format_rows, METH_VARARGS,
     "format_rows(fmt, columns) -> bytes: the rows fmt % row, joined, in UTF-8."},
    {"spans_texts", spans_texts, METH_O,
     "spans_texts(alloc) -> list[str] | None: the CPU-range text of every allocation."},
    {"job_columns", job_columns, METH_VARARGS,
     "job_columns(submit, cpus, requested, work, start, finish) -> tuple[list, ...] | None."},
    {"allocate", allocate, METH_VARARGS,
     "allocate(bounds, cpus, machine, events) -> list[Spans] | None: each job's CPUs."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "planner.cluster._speedups",
    "Optional C speedups of the replay's output (pure-Python fallback).", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
