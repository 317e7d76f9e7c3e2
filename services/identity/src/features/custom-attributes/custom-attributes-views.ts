export function customAttributeView(attribute: { key: string; value: string }) {
  return { key: attribute.key, value: attribute.value };
}
