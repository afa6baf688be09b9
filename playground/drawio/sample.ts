/** The diagram a first visit gets (`?doc=welcome`), and the start of a new one. */

/** `welcome`'s name. */
export const WELCOME_NAME = 'ようこそ';

/** `welcome`'s XML: two boxes and an arrow between them. */
export const WELCOME_XML = `<mxfile>
  <diagram id="page-1" name="ページ 1">
    <mxGraphModel dx="800" dy="600" grid="1" gridSize="10">
      <root>
        <mxCell id="0"/>
        <mxCell id="1" parent="0"/>
        <mxCell id="idea" value="アイデア" style="rounded=1;whiteSpace=wrap;html=1;" vertex="1" parent="1">
          <mxGeometry x="40" y="60" width="140" height="60" as="geometry"/>
        </mxCell>
        <mxCell id="diagram" value="図" style="ellipse;whiteSpace=wrap;html=1;fillColor=#dae8fc;strokeColor=#6c8ebf;" vertex="1" parent="1">
          <mxGeometry x="280" y="60" width="140" height="60" as="geometry"/>
        </mxCell>
        <mxCell id="arrow" value="" style="endArrow=classic;html=1;" edge="1" parent="1" source="idea" target="diagram">
          <mxGeometry relative="1" as="geometry"/>
        </mxCell>
      </root>
    </mxGraphModel>
  </diagram>
</mxfile>
`;

/** A new diagram's XML: the two cells every draw.io page has, nothing else. */
export const BLANK_XML = `<mxfile>
  <diagram id="page-1" name="ページ 1">
    <mxGraphModel grid="1" gridSize="10">
      <root>
        <mxCell id="0"/>
        <mxCell id="1" parent="0"/>
      </root>
    </mxGraphModel>
  </diagram>
</mxfile>
`;
