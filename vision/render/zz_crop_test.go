package render
import ("os";"strconv";"strings";"image";"image/png";"testing";"golang.org/x/image/draw")
func TestZZCrop(t *testing.T){
	d,_:=Open(os.Getenv("F"),"application/pdf",DefaultLimits()); defer d.Close()
	p,_:=strconv.Atoi(os.Getenv("P"))
	img,_:=d.Render(p-1)
	var f [4]int
	for i,s:=range strings.Split(os.Getenv("B"),","){f[i],_=strconv.Atoi(s)}
	sub:=img.SubImage(image.Rect(f[0],f[1],f[2],f[3]))
	sc,_:=strconv.ParseFloat(os.Getenv("S"),64); if sc==0 {sc=1}
	r:=sub.Bounds()
	dst:=image.NewGray(image.Rect(0,0,int(float64(r.Dx())*sc),int(float64(r.Dy())*sc)))
	draw.ApproxBiLinear.Scale(dst,dst.Rect,sub,r,draw.Src,nil)
	o,_:=os.Create(os.Getenv("O")); png.Encode(o,dst); o.Close()
}
