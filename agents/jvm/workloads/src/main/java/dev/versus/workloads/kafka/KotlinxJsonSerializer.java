package dev.versus.workloads.kafka;

import java.nio.charset.StandardCharsets;
import java.util.List;
import kotlin.Unit;
import kotlinx.serialization.SerializationStrategy;
import kotlinx.serialization.descriptors.PrimitiveKind;
import kotlinx.serialization.descriptors.SerialDescriptor;
import kotlinx.serialization.descriptors.SerialDescriptorsKt;
import kotlinx.serialization.encoding.CompositeEncoder;
import kotlinx.serialization.encoding.Encoder;
import kotlinx.serialization.json.Json;
import org.apache.kafka.common.serialization.Serializer;

/**
 * {@code KOTLINX_JSON}: kotlinx.serialization's JSON format ({@code Json.Default.encodeToString},
 * then UTF-8 bytes, as a Kotlin service writes {@code Json.encodeToString(event).toByteArray()}).
 * The event is a Java record, which kotlinx's compiler plugin cannot annotate, so its
 * serialization strategy is written out here as the plugin generates one for a {@code
 * @Serializable} data class with the same properties: a class descriptor, one encode call per
 * element in order, and the date through a string serializer giving ISO-8601 ({@code
 * Instant.toString()}), as Kotlin code serialises {@code java.time.Instant}.
 */
public final class KotlinxJsonSerializer implements EventSerializer {
  private static final SerializationStrategy<java.time.Instant> INSTANT = new SerializationStrategy<>() {
    private final SerialDescriptor descriptor = SerialDescriptorsKt.PrimitiveSerialDescriptor("java.time.Instant", PrimitiveKind.STRING.INSTANCE);

    @Override
    public SerialDescriptor getDescriptor() {
      return descriptor;
    }

    @Override
    public void serialize(Encoder encoder, java.time.Instant value) {
      encoder.encodeString(value.toString());
    }
  };

  private static final SerializationStrategy<OrderEvent.Item> ITEM = new SerializationStrategy<>() {
    private final SerialDescriptor descriptor = SerialDescriptorsKt.buildClassSerialDescriptor("OrderEvent.Item", new SerialDescriptor[0], b -> {
      b.element("sku", SerialDescriptorsKt.PrimitiveSerialDescriptor("sku", PrimitiveKind.STRING.INSTANCE), List.of(), false);
      b.element("quantity", SerialDescriptorsKt.PrimitiveSerialDescriptor("quantity", PrimitiveKind.INT.INSTANCE), List.of(), false);
      b.element("price", SerialDescriptorsKt.PrimitiveSerialDescriptor("price", PrimitiveKind.DOUBLE.INSTANCE), List.of(), false);
      return Unit.INSTANCE;
    });

    @Override
    public SerialDescriptor getDescriptor() {
      return descriptor;
    }

    @Override
    public void serialize(Encoder encoder, OrderEvent.Item item) {
      CompositeEncoder out = encoder.beginStructure(descriptor);
      out.encodeStringElement(descriptor, 0, item.sku());
      out.encodeIntElement(descriptor, 1, item.quantity());
      out.encodeDoubleElement(descriptor, 2, item.price());
      out.endStructure(descriptor);
    }
  };

  private static final SerializationStrategy<List<OrderEvent.Item>> ITEMS = new SerializationStrategy<>() {
    private final SerialDescriptor descriptor = SerialDescriptorsKt.listSerialDescriptor(ITEM.getDescriptor());

    @Override
    public SerialDescriptor getDescriptor() {
      return descriptor;
    }

    @Override
    public void serialize(Encoder encoder, List<OrderEvent.Item> items) {
      CompositeEncoder out = encoder.beginCollection(descriptor, items.size());
      for (int i = 0; i < items.size(); i++) out.encodeSerializableElement(descriptor, i, ITEM, items.get(i));
      out.endStructure(descriptor);
    }
  };

  static final SerializationStrategy<OrderEvent> EVENT = new SerializationStrategy<>() {
    private final SerialDescriptor descriptor = SerialDescriptorsKt.buildClassSerialDescriptor("OrderEvent", new SerialDescriptor[0], b -> {
      b.element("id", SerialDescriptorsKt.PrimitiveSerialDescriptor("id", PrimitiveKind.STRING.INSTANCE), List.of(), false);
      b.element("customer", SerialDescriptorsKt.PrimitiveSerialDescriptor("customer", PrimitiveKind.STRING.INSTANCE), List.of(), false);
      b.element("items", ITEMS.getDescriptor(), List.of(), false);
      b.element("amount", SerialDescriptorsKt.PrimitiveSerialDescriptor("amount", PrimitiveKind.DOUBLE.INSTANCE), List.of(), false);
      b.element("createdAt", INSTANT.getDescriptor(), List.of(), false);
      return Unit.INSTANCE;
    });

    @Override
    public SerialDescriptor getDescriptor() {
      return descriptor;
    }

    @Override
    public void serialize(Encoder encoder, OrderEvent event) {
      CompositeEncoder out = encoder.beginStructure(descriptor);
      out.encodeStringElement(descriptor, 0, event.id());
      out.encodeStringElement(descriptor, 1, event.customer());
      out.encodeSerializableElement(descriptor, 2, ITEMS, event.items());
      out.encodeDoubleElement(descriptor, 3, event.amount());
      out.encodeSerializableElement(descriptor, 4, INSTANT, event.createdAt());
      out.endStructure(descriptor);
    }
  };

  @Override
  public String name() {
    return "KOTLINX_JSON";
  }

  @Override
  public String description() {
    return "kotlinx.serialization JSON (Json.encodeToString), dates as ISO-8601 strings";
  }

  @Override
  public Serializer<OrderEvent> create() {
    Json json = Json.Default;
    return (topic, event) -> json.encodeToString(EVENT, event).getBytes(StandardCharsets.UTF_8);
  }
}
