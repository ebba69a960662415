import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  type GraphQLSchema,
} from 'graphql';

/** What the directives and federation plugins attach to a type, field, argument or enum value. */
interface Annotated {
  astNode?: unknown;
  extensions: Readonly<Record<string, unknown>>;
}

/**
 * The public schema (/graphql, schema/schema.graphql) without the federation annotations the builder's plugins
 * attach for the subgraph (@key, @shareable, @tag, in `extensions.directives` and the AST nodes plugin-directives
 * writes for them). Nothing else of the public schema has AST nodes (Pothos builds it from code), so they go whole;
 * the other extensions (costs, caller dependence, answer sizes) stay. Mutates the schema it is given, which must
 * be the caller's own build.
 */
export function withoutFederationDirectives(schema: GraphQLSchema): GraphQLSchema {
  const strip = (element: Annotated): void => {
    const extensions = { ...element.extensions };
    delete extensions['directives'];
    Object.assign(element, { astNode: undefined, extensions });
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type)) continue;
    strip(type);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        strip(field);
        field.args.forEach(strip);
      }
    } else if (isInputObjectType(type)) {
      Object.values(type.getFields()).forEach(strip);
    } else if (isEnumType(type)) {
      type.getValues().forEach(strip);
    }
  }
  return schema;
}
