/* xrt-tensor-private.h — what the files of the tensor share (xrt-tensor.c, -bytes.c,
 * -codec.c, -convert.c): the struct, the words of error messages, allocation, the element
 * codecs; not installed. */
#pragma once

#include "xrt/xrt-tensor.h"

G_BEGIN_DECLS

struct _XrtTensor {
  gint ref_count;
  XirNetwork *net;        /* the network @value belongs to, or NULL */
  const XirValue *value;  /* the network's value, or @own */
  XirValue *own;          /* a standalone type, owned, or NULL */
  XrtMemChunk *chunk;     /* NULL: no data yet; set once (atomically), never replaced */
  guint64 offset;
  GMutex lock;            /* readiness */
  GCond cond;
  gboolean ready;
};

static inline XrtMemChunk *
chunk_of (const XrtTensor *t)
{
  return g_atomic_pointer_get (&((XrtTensor *) t)->chunk);
}

/* xrt-tensor.c: words for error messages. C11 keeps a returned struct (and its array)
 * alive to the end of the full expression, so these can be used directly as printf
 * arguments. */
typedef struct { char s[64]; } TName;
typedef struct { char s[400]; } TText;

TName xrt_tensor_name (const XrtTensor *t);
TText xrt_tensor_shape_text (const gint64 *shape, guint rank);
TText xrt_tensor_dtype_text (const XirValue *v);
gboolean xrt_tensor_no_data_error (const XrtTensor *t, const char *what, GError **error);

/* xrt-tensor.c: construction */
XrtTensor *xrt_tensor_alloc (XirNetwork *net, const XirValue *value, XirValue *own, XrtMemChunk *chunk,
                             guint64 offset, gboolean ready);
XrtTensor *xrt_tensor_alloc_like (const XrtTensor *t, XrtMemChunk *chunk, guint64 offset, gboolean ready);
XrtMemChunk *xrt_tensor_alloc_chunk (XrtMemRegion *region, guint64 bytes, GError **error);
XrtTensor *xrt_tensor_new_host_owning (XirNetwork *net, const XirValue *value, XirValue *own, const void *data,
                                       gsize size, GError **error);

/* xrt-tensor-codec.c */
typedef enum { CODEC_INT, CODEC_FP16, CODEC_BF16, CODEC_FP32, CODEC_FP64 } Codec;

gboolean xrt_tensor_codec_of (const XrtTensor *t, const XirValue *v, Codec *codec, GError **error);
gboolean xrt_tensor_encode_floats (const XrtTensor *t, const XirValue *v, const float *src, gsize src_stride,
                                   guint8 *dst, GError **error);
float *xrt_tensor_decode_floats (const XrtTensor *t, GError **error);

G_END_DECLS
