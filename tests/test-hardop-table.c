/* test-hardop-table.c — the table of hardop kinds (devices/hardops/, issue 34 item 4): every
 * row is found by its class name and its number, the describer's "known" list is the table's,
 * and what the table says of a kind is what the wire and the compute enforce: weights only
 * for kinds with weights, the kind's input count, no kernel for a zero-copy call. */
#include "devices/hardops/zg330-hardop-class.h"
#include "devices/zg330-wire.h"

#include <string.h>

static void
test_rows (void)
{
  g_auto (GStrv) names = g_strsplit (zg330_hardop_class_list (), ", ", -1);

  g_assert_cmpuint (g_strv_length (names), ==, ZG330_N_HARDOP_KINDS);
  for (guint k = 0; k < ZG330_N_HARDOP_KINDS; k++)
    {
      const Zg330HardopClass *klass = zg330_hardop_class_get (k);
      Zg330HardopKind found = ZG330_N_HARDOP_KINDS;

      g_assert_nonnull (klass);
      g_assert_cmpstr (klass->name, ==, names[k]);
      g_assert_true (zg330_hardop_class_lookup (klass->name, &found) == klass);
      g_assert_cmpint (found, ==, k);
      g_assert_cmpstr (zg330_hardop_kind_to_string (k), ==, klass->name);
      g_assert_nonnull (klass->describe);
      g_assert_nonnull (klass->run);
      g_assert_cmpuint (klass->min_inputs, >=, 1);
      g_assert_cmpuint (klass->min_inputs, <=, klass->max_inputs);
      g_assert_cmpuint (klass->max_inputs, <=, ZG330_CALL_MAX_INPUTS);
    }
  /* the wire's kind numbers of the first rows never move */
  g_assert_cmpstr (zg330_hardop_kind_to_string (ZG330_HARDOP_CONV2D), ==, "Conv2d");
  g_assert_cmpstr (zg330_hardop_kind_to_string (ZG330_HARDOP_CAST), ==, "Cast");
  g_assert_true (zg330_hardop_class_get (ZG330_HARDOP_CONV2D)->has_weights);
  g_assert_false (zg330_hardop_class_get (ZG330_HARDOP_ADD)->has_weights);
  g_assert_true (zg330_hardop_class_get (ZG330_HARDOP_CONCAT)->fake_inputs);
  g_assert_null (zg330_hardop_class_lookup ("Softmax", NULL));
  g_assert_null (zg330_hardop_class_get (ZG330_N_HARDOP_KINDS));
  g_assert_cmpstr (zg330_hardop_kind_to_string (ZG330_N_HARDOP_KINDS), ==, "?");
}

/* An ICORE_CALC request of one call, encoded then decoded: NULL when the decoder accepts it,
 * else the error's message. */
static char *
decode_error (const Zg330HardopCall *call)
{
  Zg330WireRequest req = { .type = ZG330_WIRE_ICORE_CALC, .addr = 0x1000, .size = 16 };
  Zg330WireRequest back = { 0 };
  Zg330WireBinding b = { 0x1000, 16, FALSE, TRUE, { 0 } };
  g_autoptr (GByteArray) p = NULL;
  g_autoptr (GError) error = NULL;
  gboolean ok;

  b.call = *call;
  req.bindings = g_array_new (FALSE, TRUE, sizeof (Zg330WireBinding));
  g_array_append_val (req.bindings, b);
  p = zg330_wire_encode_request (&req);
  g_array_unref (req.bindings);
  ok = zg330_wire_decode_request (ZG330_WIRE_ICORE_CALC, p->data, p->len, &back, &error);
  zg330_wire_request_clear (&back);
  return ok ? NULL : g_strdup (error->message);
}

static Zg330HardopCall
call_of (Zg330HardopKind kind, guint n_inputs)
{
  Zg330HardopCall call = { 0 };
  Zg330CallTensor t = { .v_id = 1, .layout = ZG330_KERNEL_LAYOUT_NHWC, .dtype = ZG330_KERNEL_DTYPE_SINT8,
                        .n = 1, .c = 4, .h = 2, .w = 2, .size = 16, .region = ZG330_CALL_ETM, .addr = 0x2000 };

  call.op_id = 5;
  call.kind = kind;
  call.work.layer_count = 1;
  call.n_inputs = n_inputs;
  for (guint i = 0; i < n_inputs; i++)
    call.inputs[i] = t;
  call.output = t;
  call.output.addr = 0x3000;
  return call;
}

static void
test_wire_follows_the_table (void)
{
  Zg330HardopCall add2 = call_of (ZG330_HARDOP_ADD, 2);
  Zg330HardopCall add3 = call_of (ZG330_HARDOP_ADD, 3);
  Zg330HardopCall concat3 = call_of (ZG330_HARDOP_CONCAT, 3);
  g_autofree char *ok_add = decode_error (&add2);
  g_autofree char *ok_concat = decode_error (&concat3);
  g_autofree char *bad_add = decode_error (&add3);

  g_assert_null (ok_add);
  g_assert_null (ok_concat);
  g_assert_nonnull (bad_add);
  g_assert_nonnull (strstr (bad_add, "call.n_inputs"));
  g_assert_nonnull (strstr (bad_add, "Add"));
}

static void
test_compute_follows_the_table (void)
{
  Zg330HardopCall add1 = call_of (ZG330_HARDOP_ADD, 1);
  Zg330HardopCall zero = call_of (ZG330_HARDOP_CONCAT, 0);
  Zg330HardopCall cast = call_of (ZG330_HARDOP_CAST, 1);
  guint8 in[16], out[16];
  const guint8 *ins[1] = { in };
  g_autoptr (GError) error = NULL;

  g_assert_false (zg330_hardop_call_compute (&add1, ins, NULL, NULL, out, &error));
  g_assert_nonnull (strstr (error->message, "op 5 (Add): 1 inputs, expected 2"));
  g_clear_error (&error);
  zero.zero_copy = TRUE;
  g_assert_false (zg330_hardop_call_compute (&zero, ins, NULL, NULL, out, &error));
  g_assert_nonnull (strstr (error->message, "zero-copy"));
  g_clear_error (&error);
  /* a cast with no scales on either side copies the values, and writes every output byte */
  for (guint i = 0; i < sizeof in; i++)
    in[i] = (guint8) (i * 7);
  memset (out, 0xAB, sizeof out);
  g_assert_true (zg330_hardop_call_compute (&cast, ins, NULL, NULL, out, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (in, sizeof in, out, sizeof out);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hardop-table/rows", test_rows);
  g_test_add_func ("/hardop-table/wire-follows-the-table", test_wire_follows_the_table);
  g_test_add_func ("/hardop-table/compute-follows-the-table", test_compute_follows_the_table);
  return g_test_run ();
}
