/* Optional C speedup of the plain SWF reader (instances/traces/swf_plain.py).
 *
 * Returns exactly what the pure-Python code returns (which stays the reference
 * and the fallback when this module is not built), the way the standard
 * library's json module uses _json.
 *
 *   swf_columns(body, fields, used) -> list[list[int]] | None
 *       instances.traces.swf_plain._columns after its _numbers check: the used
 *       fields of every line as int columns, or None when a non-blank line does
 *       not hold `fields` words or a used word is not [+-]?[0-9]+ (for a body
 *       that passed _numbers, exactly when int() of a used word would fail).
 *   swf_columns(body, fields, used, True)
 *       the same, and None also when _numbers(body) is False: every word a decimal
 *       number (an optional sign, then fewer than 300 digits and points, at most
 *       one point, with a digit beside it), separated by spaces, tabs, CRs and
 *       line breaks only. One pass does both checks.
 *   int_texts(values) -> list[str]
 *       list(map(str, values)); exact ints within 64 bits are written here, anything
 *       else by str().
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* ---- swf_columns ------------------------------------------------------- */

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Whether the word [w, e) passes _numbers: [+-]?[0-9.]{1,299}, at most one point,
 * and a digit beside it. */
static int
number_word(const char *w, const char *e)
{
    const char *p = w + (*w == '+' || *w == '-'), *point = NULL;
    if (p == e || e - p >= 300)
        return 0;
    for (const char *q = p; q < e; q++) {
        if (is_digit(*q))
            continue;
        if (*q != '.' || point != NULL)
            return 0;
        point = q;
    }
    return point == NULL || (point > p && is_digit(point[-1])) ||
           (point + 1 < e && is_digit(point[1]));
}

static PyObject *
swf_columns(PyObject *self, PyObject *args)
{
    Py_buffer body;
    Py_ssize_t fields;
    PyObject *used_obj;
    int check = 0;
    if (!PyArg_ParseTuple(args, "y*nO|p:swf_columns", &body, &fields, &used_obj, &check))
        return NULL;
    PyObject *used = NULL, *columns = NULL, *result = NULL;
    Py_ssize_t *col_of = NULL; /* field -> column index, or -1 */
    char *digits = NULL;
    Py_ssize_t nused = 0;
    if (fields <= 0) {
        PyErr_SetString(PyExc_ValueError, "swf_columns: fields must be positive");
        goto done;
    }
    used = PySequence_Fast(used_obj, "swf_columns: used must be a sequence");
    if (used == NULL)
        goto done;
    nused = PySequence_Fast_GET_SIZE(used);
    col_of = PyMem_Malloc((size_t)fields * sizeof(Py_ssize_t));
    if (col_of == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < fields; k++)
        col_of[k] = -1;
    for (Py_ssize_t u = 0; u < nused; u++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(used, u));
        if (k == -1 && PyErr_Occurred())
            goto done;
        if (k < 0 || k >= fields || col_of[k] != -1) {
            PyErr_SetString(PyExc_ValueError, "swf_columns: used fields must be distinct, "
                                              "in range(fields)");
            goto done;
        }
        col_of[k] = u;
    }
    columns = PyList_New(nused);
    if (columns == NULL)
        goto done;
    for (Py_ssize_t u = 0; u < nused; u++) {
        PyObject *col = PyList_New(0);
        if (col == NULL)
            goto done;
        PyList_SET_ITEM(columns, u, col);
    }

    const char *s = body.buf, *end = s + body.len;
    while (s < end) {
        Py_ssize_t word = 0;
        for (;;) { /* the words of one line */
            while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' ||
                               *s == '\f')) {
                if (check && (*s == '\v' || *s == '\f'))
                    goto not_plain; /* not a blank to _numbers */
                s++;
            }
            if (s >= end || *s == '\n')
                break;
            const char *w = s;
            while (s < end && !(*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' ||
                                *s == '\f' || *s == '\n'))
                s++;
            if (check && !number_word(w, s))
                goto not_plain;
            if (word >= fields)
                goto not_plain;
            Py_ssize_t u = col_of[word++];
            if (u < 0)
                continue;
            const char *p = w;
            int negative = 0;
            if (*p == '+' || *p == '-')
                negative = *p++ == '-';
            if (p == s)
                goto not_plain;
            for (const char *q = p; q < s; q++)
                if (*q < '0' || *q > '9')
                    goto not_plain;
            PyObject *value;
            if (s - p <= 18) {
                long long x = 0;
                for (const char *q = p; q < s; q++)
                    x = x * 10 + (*q - '0');
                value = PyLong_FromLongLong(negative ? -x : x);
            } else {
                digits = PyMem_Realloc(digits, (size_t)(s - w) + 1);
                if (digits == NULL) {
                    PyErr_NoMemory();
                    goto done;
                }
                memcpy(digits, w, (size_t)(s - w));
                digits[s - w] = '\0';
                value = PyLong_FromString(digits, NULL, 10);
            }
            if (value == NULL)
                goto done;
            int rc = PyList_Append(PyList_GET_ITEM(columns, u), value);
            Py_DECREF(value);
            if (rc < 0)
                goto done;
        }
        if (word != 0 && word != fields)
            goto not_plain;
        if (s < end)
            s++; /* the line break */
    }
    result = columns;
    columns = NULL;
    goto done;
not_plain:
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&body);
    Py_XDECREF(used);
    Py_XDECREF(columns);
    PyMem_Free(col_of);
    PyMem_Free(digits);
    return result;
}

/* ---- int_texts ------------------------------------------------------------ */

static PyObject *
int_texts(PyObject *self, PyObject *values)
{
    PyObject *seq = PySequence_Fast(values, "int_texts: values must be a sequence");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PySequence_Fast_ITEMS(seq)[i], *text = NULL;
        int overflow = 1;
        long long x = 0;
        if (PyLong_CheckExact(v)) {
            x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (x == -1 && PyErr_Occurred())
                goto fail;
        }
        if (overflow) {
            text = PyObject_Str(v);
        } else {
            char digits[24], *p = digits + sizeof digits;
            unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
            do {
                *--p = (char)('0' + u % 10);
                u /= 10;
            } while (u);
            if (x < 0)
                *--p = '-';
            Py_ssize_t len = digits + sizeof digits - p;
            text = PyUnicode_New(len, 127);
            if (text != NULL)
                memcpy(PyUnicode_1BYTE_DATA(text), p, (size_t)len);
        }
        if (text == NULL)
            goto fail;
        PyList_SET_ITEM(out, i, text);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"swf_columns", swf_columns, METH_VARARGS,
     "swf_columns(body, fields, used) -> list[list[int]] | None: the used fields as ints."},
    {"int_texts", int_texts, METH_O,
     "int_texts(values) -> list[str]: list(map(str, values))."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "instances.traces._swf_speedups",
    "Optional C speedup of the plain SWF reader (pure-Python fallback).", -1, methods,
};

PyMODINIT_FUNC
PyInit__swf_speedups(void)
{
    return PyModule_Create(&module);
}
