/* zg330-backend-segments.c — the ZG330Backend's physical segments and what shares them:
 * the WEIGHT/INSTR images, their chunks (the user's, at the compiler's address or new),
 * the owners of a device's WEIGHT and INSTR chunks (backends of different networks share
 * FTMP only), and the "program": the hardops bound at one instruction range, run in the
 * MMU context of whichever backend launches them. */
#include "backends/zg330/zg330-backend-private.h"
#include "backends/zg330/zg330-hardop.h"
#include "devices/zg330-sim.h"

#include <string.h>

/* What the WEIGHT and INSTR chunks of a device hold: "device:addr:TYPE" -> SegmentOwner.
 * A user chunk reused for WEIGHT or INSTR must already hold this backend's bytes, or be
 * free of any other backend's (userReuseSegment: different networks share FTMP only). */
typedef struct {
  gint users;
  char *network;             /* "name" (path) of the network of the first backend */
  gint backend_id;
} SegmentOwner;
static GMutex segment_lock;
static GHashTable *segment_owners;
static GMutex program_lock;
static GHashTable *programs;  /* "device:addr" -> Program* */

static void
segment_owner_free (gpointer p)
{
  SegmentOwner *o = p;
  g_free (o->network);
  g_free (o);
}

void
zg330_backend_segment_owner_release (const char *key)
{
  SegmentOwner *o;

  if (key == NULL)
    return;
  g_mutex_lock (&segment_lock);
  o = segment_owners ? g_hash_table_lookup (segment_owners, key) : NULL;
  if (o != NULL && --o->users == 0)
    g_hash_table_remove (segment_owners, key);
  g_mutex_unlock (&segment_lock);
}

static void
program_unref (Program *prog)
{
  if (prog == NULL)
    return;
  g_mutex_lock (&program_lock);
  if (--prog->ref_count == 0)
    {
      g_autofree char *key = g_strdup_printf ("%p:%" G_GINT64_MODIFIER "x", (void *) prog->device, prog->addr);
      g_hash_table_remove (programs, key);
      g_mutex_unlock (&program_lock);
      zg330_sim_unbind_range (prog->device, prog->addr, prog->size);
      g_free (prog);
      return;
    }
  if (prog->active != NULL && prog->active->program == prog)
    prog->active = NULL;
  g_mutex_unlock (&program_lock);
}

/* The backend leaves its program (finalize). */
void
zg330_backend_program_release (Zg330Backend *self)
{
if (self->program)
  {
    g_mutex_lock (&program_lock);
    if (self->program->active == self)
      self->program->active = NULL;
    g_mutex_unlock (&program_lock);
    program_unref (self->program);
  }
}

/* The hardop as the board is to run it now: the places come from the active backend (the
 * MMU context) and its caller's tensors of this forward. */
static gboolean
bound_op_prepare (XrtDevice *device, gpointer user_data, Zg330HardopCall *call, GError **error)
{
  BoundOp *b = user_data;
  Zg330Backend *self = b->prog->active;
  Zg330HardopBinding bind = { 0 };
  const XirOp *op;
  gboolean ok;

  (void) device;
  if (self == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "instructions at 0x%" G_GINT64_MODIFIER "x ran with no backend's MMU context", b->prog->addr);
      return FALSE;
    }
  op = self->descs[b->hardop].op;
  bind.desc = self->descs[b->hardop];
  bind.inputs = g_new0 (Zg330Place, MAX (op->inputs->len, 1));
  bind.outputs = g_new0 (Zg330Place, MAX (op->outputs->len, 1));
  bind.params = g_new0 (Zg330Place, MAX (op->params->len, 1));
  for (guint k = 0; k < op->inputs->len; k++)
    zg330_backend_value_place (self, g_ptr_array_index (op->inputs, k), &bind.inputs[k]);
  for (guint k = 0; k < op->outputs->len; k++)
    zg330_backend_value_place (self, g_ptr_array_index (op->outputs, k), &bind.outputs[k]);
  {
    guint64 off = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_WEIGHT]) + self->weight_offset[b->hardop];
    for (guint k = 0; k < op->params->len; k++)
      {
        bind.params[k].region = region (self, "ETM");
        bind.params[k].addr = off;
        off += ((XirValue *) g_ptr_array_index (op->params, k))->storage_bytes;
      }
  }
  ok = zg330_hardop_prepare (&bind, call, error);
  g_free (bind.inputs);
  g_free (bind.outputs);
  g_free (bind.params);
  return ok;
}

gboolean
zg330_backend_bind_program (Zg330Backend *self, GError **error)
{
  guint64 base = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]);
  g_autofree char *key = g_strdup_printf ("%p:%" G_GINT64_MODIFIER "x", (void *) self->device, base);
  Program *prog;

  g_mutex_lock (&program_lock);
  if (programs == NULL)
    programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  prog = g_hash_table_lookup (programs, key);
  if (prog != NULL)
    {
      /* Another backend of this network already bound these instructions (shared INSTR). */
      prog->ref_count++;
      self->program = prog;
      g_mutex_unlock (&program_lock);
      return TRUE;
    }
  prog = g_new0 (Program, 1);
  prog->ref_count = 1;
  prog->device = self->device;
  prog->addr = base;
  prog->size = self->seg_size[ZW_SEGMENT_INSTR];
  g_hash_table_insert (programs, g_strdup (key), prog);
  self->program = prog;
  g_mutex_unlock (&program_lock);

  for (guint i = 0; i < self->hardops->len; i++)
    {
      BoundOp *b;
      if (self->instr_size[i] == 0)
        continue;
      b = g_new0 (BoundOp, 1);
      b->prog = prog;
      b->hardop = i;
      if (!zg330_sim_bind_hardop_call (self->device, base + self->instr_offset[i], self->instr_size[i],
                                       self->merge_hardop, bound_op_prepare, b, g_free, error))
        {
          g_prefix_error (error, "op %" G_GINT64_FORMAT ": ", ((XirOp *) g_ptr_array_index (self->hardops, i))->op_id);
          return FALSE;
        }
    }
  return TRUE;
}

/* The WEIGHT or INSTR segment's bytes, from the params. */
guint8 *
zg330_backend_segment_image (Zg330Backend *self, ZwSegmentType type)
{
  guint8 *img = g_malloc0 (MAX (self->seg_size[type], 1));

  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);
      GPtrArray *list = type == ZW_SEGMENT_WEIGHT ? op->params : op->instr;
      guint64 off = type == ZW_SEGMENT_WEIGHT ? self->weight_offset[i] : self->instr_offset[i];

      for (guint k = 0; k < list->len; k++)
        {
          XirValue *p = g_ptr_array_index (list, k);
          const guint8 *data = xir_network_get_params_data (self->net, p);
          if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
            off = p->mtype.addr - self->fixed_seg_addr[type];   /* checked inside the segment at init */
          if (data != NULL && p->storage_bytes > 0)
            memcpy (img + off, data, p->storage_bytes);
          off += p->storage_bytes;
        }
    }
  return img;
}

XrtMemChunk *
zg330_backend_segment_chunk (Zg330Backend *self, ZwSegmentType type, guint64 size, GError **error)
{
  XrtMemChunk *chunk;

  if (self->user_segment[type] != NULL)
    {
      g_autofree char *what = g_strdup_printf ("userReuseSegment(%s)", zw_segment_type_to_string (type));
      if (!zg330_backend_check_user_chunk (self, self->user_segment[type], size, what, error))
        return NULL;
      return xrt_mem_chunk_ref (self->user_segment[type]);
    }
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    chunk = xrt_mem_region_malloc_at (region (self, "ETM"), self->fixed_seg_addr[type], MAX (size, 1), TRUE, error);
  else
    chunk = xrt_mem_region_malloc (region (self, "ETM"), MAX (size, SEGMENT_ALIGN), TRUE, SEGMENT_ALIGN, error);
  if (chunk == NULL)
    g_prefix_error (error, "%s segment of %s (%" G_GUINT64_FORMAT " bytes): ", zw_segment_type_to_string (type),
                    xir_network_get_name (self->net), size);
  return chunk;
}

/* Before uploading WEIGHT or INSTR (@image): a chunk that already holds another backend's
 * segment must hold these very bytes (backends of one network view, a fork); otherwise
 * uploading would silently break the other backend (userReuseSegment across networks). */
gboolean
zg330_backend_claim_segment (Zg330Backend *self, ZwSegmentType type, const guint8 *image, GError **error)
{
  XrtMemChunk *chunk = self->phy[type];
  g_autofree char *key = g_strdup_printf ("%p:%" G_GINT64_MODIFIER "x:%d", (void *) self->device,
                                          xrt_mem_chunk_get_addr (chunk), (int) type);
  g_autofree guint8 *held = NULL;
  SegmentOwner *o;
  gboolean same = TRUE;

  g_mutex_lock (&segment_lock);
  if (segment_owners == NULL)
    segment_owners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, segment_owner_free);
  o = g_hash_table_lookup (segment_owners, key);
  if (o != NULL && self->seg_size[type] > 0)
    {
      held = g_malloc (self->seg_size[type]);
      same = xrt_mem_chunk_read (chunk, 0, held, self->seg_size[type], NULL)
             && memcmp (held, image, self->seg_size[type]) == 0;
    }
  if (o != NULL && !same)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "userReuseSegment(%s): the chunk at 0x%" G_GINT64_MODIFIER "x holds the %s of network %s "
                   "(ZG330Backend %d), and ZG330Backend %d of network \"%s\" (%s, ops %u..%u) has other %s bytes: "
                   "backends of different networks may share FTMP only",
                   zw_segment_type_to_string (type), xrt_mem_chunk_get_addr (chunk), zw_segment_type_to_string (type),
                   o->network, o->backend_id, self->id, xir_network_get_name (self->net), xir_network_get_path (self->net),
                   xir_network_view_get_start (self->view),
                   xir_network_view_get_start (self->view) + xir_network_view_get_n_ops (self->view) - 1,
                   zw_segment_type_to_string (type));
      g_mutex_unlock (&segment_lock);
      return FALSE;
    }
  if (o != NULL)
    o->users++;
  else
    {
      o = g_new0 (SegmentOwner, 1);
      o->users = 1;
      o->backend_id = self->id;
      o->network = g_strdup_printf ("\"%s\" (%s, ops %u..%u)", xir_network_get_name (self->net),
                                    xir_network_get_path (self->net), xir_network_view_get_start (self->view),
                                    xir_network_view_get_start (self->view) + xir_network_view_get_n_ops (self->view) - 1);
      g_hash_table_insert (segment_owners, g_strdup (key), o);
    }
  g_mutex_unlock (&segment_lock);
  g_free (self->segment_key[type]);
  self->segment_key[type] = g_steal_pointer (&key);
  return TRUE;
}
