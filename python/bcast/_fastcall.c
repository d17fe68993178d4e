/* bcast._fastcall: the common case of the package's one call path
 * (bcast/_call.py) in C, for its per-call cost.
 *
 * _call.py defines what a call does; this module has the same three
 * functions (execute, run_cached, run_planned) and does in C only the calls
 * that need no message: every value an ndarray laid out as the plan says,
 * out= writeable (or None with a C-order plan), threads=None, and the library
 * accepting the execute. Every other call, and every call the library
 * refuses (nothing is written then), goes to the Python function of the same
 * name, which checks, raises and says what is wrong. So both paths accept
 * the same calls, give the same results and raise the same errors.
 *
 * The library's execute functions come from the libbcast that ctypes loaded
 * (their addresses, given by _plans), so this module links nothing but
 * Python and numpy. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <stdint.h>
#include <string.h>

/* bcast_op_execute and bcast_expr_execute: (handle, inputs, output) -> bcast_status. */
typedef int32_t (*execute_fn)(const void *handle, const void *const *inputs, void *output);

/* A call with more pointers than this goes the Python way (the library takes 16 inputs). */
enum { MAX_POINTERS = 64 };

/* Calls writing at least this many elements let other Python threads run
 * meanwhile, as ctypes does for every call; below it, releasing and taking
 * the GIL back costs more than the execute itself. */
#define RELEASE_GIL_ELEMENTS 16384

/* The (shape, byte strides, dtype) a plan was made for. */
typedef struct {
    int ndim;
    npy_intp dims[NPY_MAXDIMS];
    npy_intp strides[NPY_MAXDIMS];
    PyArray_Descr *dtype;
} Layout;

/* Runner: what a call of one planned Plan needs (Plan.runner). */
typedef struct {
    PyObject_HEAD
    const void *handle;  /* owned by the Plan, which outlives every call on it */
    execute_fn execute;
    Py_ssize_t count;    /* input pointers per execute: the signature's arrays */
    Layout *inputs;      /* count of them */
    Layout out;
    int out_contiguous;  /* a call without out= may allocate a C-order output */
    int scalar_result;   /* a 0-d result without out= is a numpy scalar */
    npy_intp elements;   /* of the output */
    PyObject *keep;      /* a tuple: the plan's constants, after the call's arrays */
} Runner;

/* _call.py's Python functions and the cache's steps (setup()). */
static PyObject *py_execute, *py_run_planned, *cache_lookup, *cache_touch, *count_hit,
    *invalid_argument;
static PyObject *runner_name, *empty_tuple;

static int read_layout(PyObject *shape, PyObject *strides, PyObject *dtype, Layout *layout)
{
    if (!PyTuple_Check(shape) || !PyTuple_Check(strides) ||
        PyTuple_GET_SIZE(shape) != PyTuple_GET_SIZE(strides) ||
        PyTuple_GET_SIZE(shape) > NPY_MAXDIMS || !PyArray_DescrCheck(dtype)) {
        PyErr_SetString(PyExc_TypeError, "Runner: a layout is (shape, strides, dtype)");
        return -1;
    }
    layout->ndim = (int)PyTuple_GET_SIZE(shape);
    for (int i = 0; i < layout->ndim; ++i) {
        layout->dims[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
        layout->strides[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, i));
    }
    if (PyErr_Occurred())
        return -1;
    Py_INCREF(dtype);
    layout->dtype = (PyArray_Descr *)dtype;
    return 0;
}

/* As Python's (a.shape, a.strides, a.dtype) == layout. */
static int fits(PyArrayObject *a, const Layout *layout)
{
    int ndim = PyArray_NDIM(a);  /* a 0-d array may have NULL dims: no memcmp then */
    return ndim == layout->ndim &&
           (ndim == 0 ||
            (memcmp(PyArray_DIMS(a), layout->dims, ndim * sizeof(npy_intp)) == 0 &&
             memcmp(PyArray_STRIDES(a), layout->strides, ndim * sizeof(npy_intp)) == 0)) &&
           (PyArray_DESCR(a) == layout->dtype ||
            PyArray_EquivTypes(PyArray_DESCR(a), layout->dtype));
}

static void Runner_dealloc(Runner *self)
{
    if (self->inputs) {
        for (Py_ssize_t i = 0; i < self->count; ++i)
            Py_XDECREF(self->inputs[i].dtype);
        PyMem_Free(self->inputs);
    }
    Py_XDECREF(self->out.dtype);
    Py_XDECREF(self->keep);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Runner(handle, execute, signature, out_signature, out_contiguous, scalar_result, keep):
 * the addresses of the handle and of its execute function, then Plan's fields. */
static PyObject *Runner_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *handle, *execute, *signature, *out_signature, *keep;
    int out_contiguous, scalar_result;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Runner() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOO!O!ppO!:Runner", &handle, &execute, &PyTuple_Type, &signature,
                          &PyTuple_Type, &out_signature, &out_contiguous, &scalar_result,
                          &PyTuple_Type, &keep))
        return NULL;
    if (PyTuple_GET_SIZE(signature) % 3 != 0 || PyTuple_GET_SIZE(out_signature) != 3) {
        PyErr_SetString(PyExc_TypeError, "Runner: signatures are (shape, strides, dtype) triples");
        return NULL;
    }
    Runner *self = (Runner *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->handle = PyLong_AsVoidPtr(handle);
    /* Through an integer: ISO C has no object-to-function pointer conversion. */
    self->execute = (execute_fn)(uintptr_t)PyLong_AsVoidPtr(execute);
    self->count = PyTuple_GET_SIZE(signature) / 3;
    self->out_contiguous = out_contiguous;
    self->scalar_result = scalar_result;
    Py_INCREF(keep);
    self->keep = keep;
    self->inputs = PyMem_Calloc(self->count ? self->count : 1, sizeof(Layout));
    if (!self->inputs) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (PyErr_Occurred() || !self->handle || !self->execute) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "Runner: a NULL handle or function");
        Py_DECREF(self);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->count; ++i) {
        PyObject **triple = &PyTuple_GET_ITEM(signature, 3 * i);
        if (read_layout(triple[0], triple[1], triple[2], &self->inputs[i]) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    PyObject **triple = &PyTuple_GET_ITEM(out_signature, 0);
    if (read_layout(triple[0], triple[1], triple[2], &self->out) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->elements = PyArray_MultiplyList(self->out.dims, self->out.ndim);
    return (PyObject *)self;
}

static PyTypeObject RunnerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bcast._fastcall.Runner",
    .tp_doc = "What a call of one planned bcast Plan needs, read once (Plan.runner).",
    .tp_basicsize = sizeof(Runner),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Runner_new,
    .tp_dealloc = (destructor)Runner_dealloc,
};

/* The plan's Runner (borrowed: the plan holds it), or NULL without an error. */
static Runner *runner_of(PyObject *plan)
{
    PyObject *runner = PyObject_GetAttr(plan, runner_name);
    if (!runner) {
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(runner);
    return Py_IS_TYPE(runner, &RunnerType) ? (Runner *)runner : NULL;
}

/* The pointer of an ndarray (or NULL for anything else) into *pointer. */
static int data_of(PyObject *value, const void **pointer)
{
    if (!PyArray_Check(value))
        return 0;
    *pointer = PyArray_DATA((PyArrayObject *)value);
    return 1;
}

/* _call.execute for the common case: a new reference to the result; NULL
 * with an exception; or NULL without one when the Python execute must take
 * the call. */
static PyObject *try_execute(Runner *r, PyObject *const *arrays, Py_ssize_t n, PyObject *out,
                             PyObject *threads)
{
    const void *pointers[MAX_POINTERS];
    Py_ssize_t kept = PyTuple_GET_SIZE(r->keep);
    if (threads != Py_None || n + kept != r->count || r->count > MAX_POINTERS)
        return NULL;
    for (Py_ssize_t i = 0; i < n; ++i)
        if (!data_of(arrays[i], &pointers[i]))
            return NULL;
    for (Py_ssize_t i = 0; i < kept; ++i)
        if (!data_of(PyTuple_GET_ITEM(r->keep, i), &pointers[n + i]))
            return NULL;
    int given = out != Py_None;
    if (given) {
        if (!PyArray_Check(out) || !PyArray_ISWRITEABLE((PyArrayObject *)out))
            return NULL;
        Py_INCREF(out);
    } else {
        if (!r->out_contiguous)
            return NULL;
        Py_INCREF(r->out.dtype);  /* PyArray_Empty steals it */
        out = PyArray_Empty(r->out.ndim, r->out.dims, r->out.dtype, 0);
        if (!out)
            return NULL;
    }
    void *output = PyArray_DATA((PyArrayObject *)out);
    int32_t status;
    if (r->elements >= RELEASE_GIL_ELEMENTS) {
        Py_BEGIN_ALLOW_THREADS
        status = r->execute(r->handle, pointers, output);
        Py_END_ALLOW_THREADS
    } else {
        status = r->execute(r->handle, pointers, output);
    }
    if (status != 0) {  /* refused, nothing written: the Python execute says why */
        Py_DECREF(out);
        return NULL;
    }
    if (!given && r->out.ndim == 0 && r->scalar_result) {
        PyObject *scalar = PyObject_GetItem(out, empty_tuple);  /* out[()] */
        Py_DECREF(out);
        return scalar;
    }
    return out;
}

/* execute(plan, arrays, out, threads): try_execute, else _call.execute's Python. */
static PyObject *execute_call(PyObject *plan, PyObject *arrays, PyObject *out, PyObject *threads)
{
    Runner *r = runner_of(plan);
    if (r && (PyTuple_CheckExact(arrays) || PyList_CheckExact(arrays))) {
        PyObject *result = try_execute(r, PySequence_Fast_ITEMS(arrays),
                                       PySequence_Fast_GET_SIZE(arrays), out, threads);
        if (result || PyErr_Occurred())
            return result;
    }
    PyObject *args[] = {plan, arrays, out, threads};
    return PyObject_Vectorcall(py_execute, args, 4, NULL);
}

/* NULL with a TypeError: the module's functions are called by _call.py alone. */
static PyObject *wrong_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t expected)
{
    return PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, expected,
                        nargs);
}

static PyObject *execute(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4)
        return wrong_nargs("execute", nargs, 4);
    return execute_call(args[0], args[1], args[2], args[3]);
}

/* A new int tuple of n values. */
static PyObject *int_tuple(const npy_intp *values, int n)
{
    PyObject *tuple = PyTuple_New(n);
    if (!tuple)
        return NULL;
    for (int i = 0; i < n; ++i) {
        PyObject *v = PyLong_FromSsize_t(values[i]);
        if (!v) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, v);
    }
    return tuple;
}

/* Puts a's (shape, strides, dtype) at key[at...]. */
static int put_layout(PyObject *key, Py_ssize_t at, PyArrayObject *a)
{
    PyObject *shape = int_tuple(PyArray_DIMS(a), PyArray_NDIM(a));
    if (!shape)
        return -1;
    PyTuple_SET_ITEM(key, at, shape);
    PyObject *strides = int_tuple(PyArray_STRIDES(a), PyArray_NDIM(a));
    if (!strides)
        return -1;
    PyTuple_SET_ITEM(key, at + 1, strides);
    Py_INCREF(PyArray_DESCR(a));
    PyTuple_SET_ITEM(key, at + 2, (PyObject *)PyArray_DESCR(a));
    return 0;
}

/* _call.key(head, arrays, out), for ndarrays. */
static PyObject *cache_key(PyObject *head, PyObject *arrays, PyObject *out)
{
    Py_ssize_t h = PyTuple_GET_SIZE(head), n = PyTuple_GET_SIZE(arrays);
    Py_ssize_t at = h + (out == Py_None ? 1 : 3);
    PyObject *key = PyTuple_New(at + 3 * n);
    if (!key)
        return NULL;
    for (Py_ssize_t i = 0; i < h; ++i) {
        Py_INCREF(PyTuple_GET_ITEM(head, i));
        PyTuple_SET_ITEM(key, i, PyTuple_GET_ITEM(head, i));
    }
    if (out == Py_None) {
        Py_INCREF(Py_None);
        PyTuple_SET_ITEM(key, h, Py_None);
    } else if (put_layout(key, h, (PyArrayObject *)out) < 0) {
        Py_DECREF(key);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; ++i)
        if (put_layout(key, at + 3 * i, (PyArrayObject *)PyTuple_GET_ITEM(arrays, i)) < 0) {
            Py_DECREF(key);
            return NULL;
        }
    return key;
}

/* run_cached(head, arrays, out, threads): _call.run_cached, step for step. */
static PyObject *run_cached(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4)
        return wrong_nargs("run_cached", nargs, 4);
    PyObject *head = args[0], *arrays = args[1], *out = args[2], *threads = args[3];
    if (!PyTuple_CheckExact(head) || !PyTuple_CheckExact(arrays))
        return PyErr_Format(PyExc_TypeError, "run_cached: head and arrays are tuples");
    if (out != Py_None && !PyArray_CheckExact(out))
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(arrays); ++i)
        if (!PyArray_CheckExact(PyTuple_GET_ITEM(arrays, i)))
            Py_RETURN_NONE;
    PyObject *key = cache_key(head, arrays, out);
    if (!key)
        return NULL;
    PyObject *plan = PyObject_CallOneArg(cache_lookup, key);
    if (!plan || plan == Py_None) {
        Py_DECREF(key);
        if (!plan && !PyErr_ExceptionMatches(PyExc_TypeError))  /* TypeError: unhashable */
            return NULL;
        PyErr_Clear();
        Py_XDECREF(plan);
        Py_RETURN_NONE;
    }
    PyObject *touched = PyObject_CallOneArg(cache_touch, key);
    Py_DECREF(key);
    if (touched) {
        Py_DECREF(touched);
    } else if (PyErr_ExceptionMatches(PyExc_KeyError)) {  /* evicted just now: still valid */
        PyErr_Clear();
    } else {
        Py_DECREF(plan);
        return NULL;
    }
    PyObject *result = execute_call(plan, arrays, out, threads);
    Py_DECREF(plan);
    if (!result) {
        if (!PyErr_ExceptionMatches(invalid_argument))  /* e.g. misaligned: the general path */
            return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *counted = PyObject_CallNoArgs(count_hit);
    if (!counted) {
        Py_DECREF(result);
        return NULL;
    }
    Py_DECREF(counted);
    return result;
}

/* run_planned(plan, values, out, threads, bfloat16): every value (and out)
 * an ndarray with the planned layout runs at once, anything else goes to
 * _call.run_planned's Python, which converts, checks and says what differs. */
static PyObject *run_planned(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5)
        return wrong_nargs("run_planned", nargs, 5);
    PyObject *plan = args[0], *values = args[1], *out = args[2], *threads = args[3];
    Runner *r = runner_of(plan);
    int planned = r && PyTuple_CheckExact(values) && PyTuple_GET_SIZE(values) == r->count &&
                  (out == Py_None || (PyArray_CheckExact(out) &&
                                      fits((PyArrayObject *)out, &r->out)));
    for (Py_ssize_t i = 0; planned && i < r->count; ++i) {
        PyObject *v = PyTuple_GET_ITEM(values, i);
        planned = PyArray_CheckExact(v) && fits((PyArrayObject *)v, &r->inputs[i]);
    }
    if (planned)
        return execute_call(plan, values, out, threads);
    return PyObject_Vectorcall(py_run_planned, args, 5, NULL);
}

/* setup(execute, run_planned, lookup, touch, count_hit, InvalidArgumentError):
 * _call.py's Python functions to hand calls to, and the plan cache's steps. */
static PyObject *setup(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6)
        return wrong_nargs("setup", nargs, 6);
    PyObject **slots[] = {&py_execute, &py_run_planned, &cache_lookup, &cache_touch, &count_hit,
                          &invalid_argument};
    for (int i = 0; i < 6; ++i) {
        Py_INCREF(args[i]);
        Py_XSETREF(*slots[i], args[i]);
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"execute", (PyCFunction)(void (*)(void))execute, METH_FASTCALL,
     "execute(plan, arrays, out, threads): bcast._call.execute."},
    {"run_cached", (PyCFunction)(void (*)(void))run_cached, METH_FASTCALL,
     "run_cached(head, arrays, out, threads): bcast._call.run_cached."},
    {"run_planned", (PyCFunction)(void (*)(void))run_planned, METH_FASTCALL,
     "run_planned(plan, values, out, threads, bfloat16): bcast._call.run_planned."},
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL,
     "setup(execute, run_planned, lookup, touch, count_hit, InvalidArgumentError)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_fastcall",
    .m_doc = "The common case of bcast's call path (bcast/_call.py) in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__fastcall(void)
{
    import_array();
    if (PyType_Ready(&RunnerType) < 0)
        return NULL;
    runner_name = PyUnicode_InternFromString("runner");
    empty_tuple = PyTuple_New(0);
    if (!runner_name || !empty_tuple)
        return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (!module)
        return NULL;
    Py_INCREF(&RunnerType);
    if (PyModule_AddObject(module, "Runner", (PyObject *)&RunnerType) < 0) {
        Py_DECREF(&RunnerType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
