/* buyi-backend.c — BuyiBackend (buyi-backend.h): the ZG330 engine with Buyi's rules. */
#include "backends/buyi/buyi-backend.h"
#include "backends/buyi/buyi-placement.h"

typedef struct {
  Zg330BackendClass parent_class;
} BuyiBackendClass;

gboolean
buyi_backend_supports_op (const XirOp *op)
{
  return op != NULL && op->kind == XIR_OP_HARDOP && op->target.kind == XIR_TARGET_BUYI;
}

/* The compiler's addresses are physical: a second deployment of the network on the board
 * would put its FTMP on the first one's. */
static XrtBackend *
buyi_fork (XrtBackend *self, GError **error)
{
  g_autoptr (ZwDeployReport) r = xrt_backend_get_report (self);
  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
               "fork: the BuyiBackend deploys the compiler's physical addresses (FTMP at 0x%" G_GINT64_MODIFIER "x), so "
               "a network runs once per board: give each thread its own board (mock://buyi) and session",
               r ? r->segments[ZW_SEGMENT_FTMP].logic_addr : 0);
  return NULL;
}

static void
buyi_backend_class_init (gpointer klass, gpointer data)
{
  XrtBackendClass *bclass = XRT_BACKEND_CLASS (klass);
  Zg330BackendClass *zclass = ZG330_BACKEND_CLASS (klass);

  (void) data;
  bclass->name = "BuyiBackend";
  bclass->short_name = "Buyi";
  bclass->reports_io_process = FALSE;   /* the Buyi time files have no is_io_process column */
  bclass->default_device_url = "mock://buyi";
  bclass->supports_op = buyi_backend_supports_op;
  bclass->fork = buyi_fork;
  zclass->chip = "Buyi";
  zclass->target = "@buyit";
  zclass->device_name = "buyi";
  zclass->default_merge_hardop = FALSE;
  zclass->default_etm_optimize = FALSE;
  zclass->has_ocm_options = FALSE;
  zclass->outputs_at_user_addresses = FALSE;
  zclass->ocm_read_back = FALSE;
  zclass->compiler_placed = TRUE;
  zclass->placement = &buyi_placement;
}

/* No instance fields of its own: the type is registered with the parent's instance size,
 * which stays private to zg330-backend.c. */
GType
buyi_backend_get_type (void)
{
  static GType type;

  if (g_once_init_enter (&type))
    {
      GTypeQuery q;
      GType t;
      g_type_query (ZG330_TYPE_BACKEND, &q);
      t = g_type_register_static_simple (ZG330_TYPE_BACKEND, g_intern_static_string ("BuyiBackend"),
                                         sizeof (BuyiBackendClass), buyi_backend_class_init, q.instance_size, NULL, 0);
      g_once_init_leave (&type, t);
    }
  return type;
}

Zg330Backend *
buyi_backend_new (XirNetworkView *view, XrtDevice *device, GError **error)
{
  return (Zg330Backend *) xrt_backend_new_of_type (BUYI_TYPE_BACKEND, view, device, error);
}

__attribute__ ((constructor)) static void
register_buyi_backend (void)
{
  xrt_backend_register (BUYI_TYPE_BACKEND);
}
