/* xrt-mem-ptr.c — MemPtr: a host pointer, a device address, or both. */
#include "xrt/xrt-mem-private.h"

#include "base/zw-checked.h"
#include "xrt/xrt-device.h"

#include <string.h>

/* ---- MemPtr ------------------------------------------------------------ */

XrtMemPtr
xrt_mem_ptr_null (void)
{
  return (XrtMemPtr) { XRT_PTR_CPTR, NULL, 0 };
}

XrtMemPtr
xrt_mem_ptr_from_cptr (gpointer cptr)
{
  return (XrtMemPtr) { XRT_PTR_CPTR, cptr, 0 };
}

XrtMemPtr
xrt_mem_ptr_from_addr (guint64 addr)
{
  return (XrtMemPtr) { XRT_PTR_ADDR, NULL, addr };
}

XrtMemPtr
xrt_mem_ptr_from_both (gpointer cptr, guint64 addr)
{
  return (XrtMemPtr) { XRT_PTR_BOTH, cptr, addr };
}

gboolean
xrt_mem_ptr_is_null (XrtMemPtr ptr)
{
  return ptr.ptype == XRT_PTR_CPTR && ptr.cptr == NULL;
}

XrtMemPtr
xrt_mem_ptr_offset (XrtMemPtr ptr, guint64 delta)
{
  if (ptr.ptype != XRT_PTR_ADDR && ptr.cptr != NULL)
    ptr.cptr += delta;
  if (ptr.ptype != XRT_PTR_CPTR)
    ptr.addr += delta;
  return ptr;
}

guint8 *
xrt_mem_ptr_get_cptr (XrtMemPtr ptr, GError **error)
{
  if (ptr.ptype == XRT_PTR_ADDR)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION,
                   "MemPtr 0x%" G_GINT64_MODIFIER "x is a device address (ADDR), "
                   "the host cannot address it", ptr.addr);
      return NULL;
    }
  return ptr.cptr;
}

gboolean
xrt_mem_ptr_get_addr (XrtMemPtr ptr, guint64 *addr, GError **error)
{
  if (ptr.ptype == XRT_PTR_CPTR)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION,
                   "MemPtr %p is a host pointer (CPTR) without a device address",
                   (void *) ptr.cptr);
      return FALSE;
    }
  *addr = ptr.addr;
  return TRUE;
}

gchar *
xrt_mem_ptr_to_string (XrtMemPtr ptr)
{
  if (xrt_mem_ptr_is_null (ptr))
    return g_strdup ("null");
  switch (ptr.ptype)
    {
    case XRT_PTR_CPTR:
      return g_strdup_printf ("%p (CPTR)", (void *) ptr.cptr);
    case XRT_PTR_ADDR:
      return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x (ADDR)", ptr.addr);
    case XRT_PTR_BOTH:
    default:
      return g_strdup_printf ("%p/0x%" G_GINT64_MODIFIER "x (BOTH)",
                              (void *) ptr.cptr, ptr.addr);
    }
}
